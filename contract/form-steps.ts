/**
 * Counting without tracking: the donate form's steps and why a donor stopped, as the widget
 * reports them (POST /v1/form-events) and the staff dashboard counts them. Counts are kept per
 * campaign, hour, step, reason, channel and device class, never per person. No zod: the
 * widget's beacon reads these before zod has loaded.
 */
import { CHANNEL_TAG_PATTERN } from "./patterns";

/** The form's steps, in the order a donor meets them. */
export const FORM_STEPS = ["shown", "amount", "details", "card", "sent", "thanks"] as const;
export type FormStep = (typeof FORM_STEPS)[number];

/**
 * Why an event was reported: `reached` (the donor got to the step), or why the donor stopped
 * there, where the form knows it: a field refused (`invalid_*`), a declined card, a challenge
 * not solved in time, the upstream failing, the donor closing the dialog.
 */
export const FORM_REASONS = [
  "reached",
  "invalid_amount",
  "invalid_name",
  "invalid_email",
  "invalid_phone",
  "invalid_address",
  "invalid_other",
  "declined",
  "challenge_unsolved",
  "upstream_error",
  "closed",
] as const;
export type FormReason = (typeof FORM_REASONS)[number];

/** The viewport's class, from its width alone (never the user agent): below PHONE_MAX_PX is a phone. */
export const DEVICE_CLASSES = ["phone", "larger"] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];
/** The widest viewport counted as a phone, in CSS pixels. */
export const PHONE_MAX_PX = 599;

/** The channel of a form with neither a channel tag nor a `utm_source`. */
export const CHANNEL_DIRECT = "direct";
/** Where a channel is counted when it is no channel tag, or one past the cap of its campaign's hour. */
export const CHANNEL_OTHER = "other";

/** The most events one beacon carries; the widget sends at most this many at once. */
export const FORM_EVENTS_MAX = 12;
/** The largest beacon body, in bytes: a full batch is well under 1 KB. */
export const FORM_EVENTS_BODY_MAX = 2048;

/** One event of a beacon. */
export interface FormEvent {
  step: FormStep;
  reason: FormReason;
}

/** A beacon's body, as the widget sends it (text/plain or application/json, JSON inside). */
export interface FormEventsBody {
  /** The form session the beacon counts under (POST /v1/form-sessions). */
  form_session: string;
  /** The element's channel tag, else the page's `utm_source`; absent for none. */
  channel?: string;
  device: DeviceClass;
  events: FormEvent[];
}

/**
 * What only the proxy can know, counted from its own outcomes of the session's card and gift
 * (proxy/dashboard/form-outcomes.ts), never from a beacon: a gift sent (its card reached the
 * proxy), a thank-you (the gift charged), and a stop on a decline, an unsolved challenge or the
 * upstream failing. A beacon's event of these counts nothing.
 */
export const PROXY_STEPS: readonly FormStep[] = ["sent", "thanks"];
export const PROXY_REASONS: readonly FormReason[] = ["declined", "challenge_unsolved", "upstream_error"];
/** Whether only the proxy may count this event: a gift sent or thanked, or a stop it saw. */
export const isProxyCounted = (event: FormEvent) =>
  (PROXY_STEPS.includes(event.step) && event.reason === "reached") || PROXY_REASONS.includes(event.reason);

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  (list as readonly unknown[]).includes(value);
export const isFormStep = (value: unknown): value is FormStep => isOneOf(FORM_STEPS, value);
export const isFormReason = (value: unknown): value is FormReason => isOneOf(FORM_REASONS, value);
export const isDeviceClass = (value: unknown): value is DeviceClass => isOneOf(DEVICE_CLASSES, value);

/** The device class of a viewport `width` CSS pixels wide. */
export const deviceClassOf = (width: number): DeviceClass => (width <= PHONE_MAX_PX ? "phone" : "larger");

/**
 * The channel a beacon is counted under: a channel tag as it is, lower-cased (tags differ by
 * case only by mistake); nothing → `direct`; anything else (a free-text `utm_source`) → `other`.
 *
 * @example
 * countedChannel("Spring-Gala"); // "spring-gala"
 * countedChannel(undefined); // "direct"
 * countedChannel("news letter"); // "other"
 */
export function countedChannel(channel: unknown): string {
  if (channel === undefined || channel === null || channel === "") return CHANNEL_DIRECT;
  if (typeof channel !== "string" || !CHANNEL_TAG_PATTERN.test(channel)) return CHANNEL_OTHER;
  return channel.toLowerCase();
}

/**
 * Why a beacon body is not one, by field (an empty object: it is one). Unknown fields, steps and
 * reasons, too many events and a missing session are each named.
 */
export function formEventsProblems(body: unknown): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { body: ["Send a JSON object."] };
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (!["form_session", "channel", "device", "events"].includes(key)) problems[key] = ["Unknown field."];
  if (
    typeof fields.form_session !== "string" ||
    fields.form_session === "" ||
    fields.form_session.length > 600
  )
    problems.form_session = ["A form session (POST /v1/form-sessions) is required."];
  if (fields.channel !== undefined && (typeof fields.channel !== "string" || fields.channel.length > 200))
    problems.channel = ["A channel is a short text."];
  if (!isDeviceClass(fields.device)) problems.device = [`A device is one of ${DEVICE_CLASSES.join(", ")}.`];
  const events = fields.events;
  if (!Array.isArray(events) || events.length === 0 || events.length > FORM_EVENTS_MAX) {
    problems.events = [`Send 1 to ${FORM_EVENTS_MAX} events.`];
  } else {
    events.forEach((event: unknown, index) => {
      const { step, reason, ...rest } = (typeof event === "object" && event !== null ? event : {}) as Record<
        string,
        unknown
      >;
      if (!isFormStep(step))
        problems[`events.${index}.step`] = [`A step is one of ${FORM_STEPS.join(", ")}.`];
      if (!isFormReason(reason))
        problems[`events.${index}.reason`] = ["A reason is one of the form's reasons."];
      if (Object.keys(rest).length > 0) problems[`events.${index}`] = ["Only step and reason."];
      else if (isFormStep(step) && isFormReason(reason) && isProxyCounted({ step, reason }))
        problems[`events.${index}`] = [
          `${step} ${reason} is counted by the proxy from the card and the gift themselves, never from a beacon.`,
        ];
    });
  }
  return problems;
}
