/**
 * The donate form's steps, counted without tracking anyone (contract/form-steps.ts): the frame
 * holds the form session and is the proxy's own page, so it, not the host page, posts the beacons
 * to /v1/form-events. It hears the steps from what the form already tells it (its look: shown; a
 * complete card; a token asked for: sent; a reset after a gift: thanks) and from the page's
 * `givekit:step` messages (a step passed, why the donor was stopped). A step implies those before
 * it; a reason is counted at the furthest step reached. What only the proxy can know (a gift sent,
 * a thank-you, a decline, contract/form-steps.ts PROXY_STEPS and PROXY_REASONS) is never sent: the
 * proxy counts it from its own outcomes. Nothing personal is in a beacon: the session, the
 * channel, the device class and the steps.
 */
import type { WidgetErrorCode } from "../../contract/errors";
import {
  deviceClassOf,
  FORM_EVENTS_MAX,
  FORM_STEPS,
  isProxyCounted,
  type DeviceClass,
  type FormEvent,
  type FormEventsBody,
  type FormReason,
  type FormStep,
} from "../../contract/form-steps";
import type { FormSessionSource } from "./form-session";

/** Same origin as the frame: the proxy that served it. */
export const FORM_EVENTS_URL = "/v1/form-events";
/** How long events wait for others before they are sent together. */
export const FORM_EVENTS_FLUSH_MS = 2000;

/** The reason an attempt's code (or `closed`) stands for; other codes count nothing. */
const CODE_REASONS: Partial<Record<WidgetErrorCode | "closed", FormReason>> = {
  card_declined: "declined",
  too_many_declines: "declined",
  payment_failed: "declined",
  upstream_unavailable: "upstream_error",
  upstream_auth_failed: "upstream_error",
  upstream_error: "upstream_error",
  challenge_failed: "challenge_unsolved",
  closed: "closed",
};

/** The reason a refused field stands for (the form's field names, widget/donate/base/fields.ts). */
function fieldReason(field: string | undefined): FormReason {
  if (field === "amount") return "invalid_amount";
  if (field === "email") return "invalid_email";
  if (field === "phone") return "invalid_phone";
  if (field === "fullName" || field === "firstName" || field === "lastName") return "invalid_name";
  if (field && ["street", "city", "state", "country", "zip"].includes(field)) return "invalid_address";
  return "invalid_other";
}

/** The reason the page's `code` (and refused `field`) stands for, or null when it counts nothing. */
export function reasonOf(code: string, field?: string): FormReason | null {
  if (code === "validation_failed") return fieldReason(field);
  return CODE_REASONS[code as keyof typeof CODE_REASONS] ?? null;
}

export interface FormEventsDeps {
  formSession: FormSessionSource;
  /** navigator.sendBeacon, or a stand-in. */
  send?: (url: string, body: string) => boolean;
  /** The window whose pagehide and hidden visibility send what waits. */
  target?: Window;
}

/**
 * The frame's step counter: `reach` and `stop` queue events (each once), sent as one beacon
 * FORM_EVENTS_FLUSH_MS after the first waiting one, at once when FORM_EVENTS_MAX wait, and when
 * the page hides or goes. Nothing is sent before the form's look has told the channel and device.
 */
export function createFormEvents({
  formSession,
  send = (url, body) => navigator.sendBeacon(url, body),
  target = window,
}: FormEventsDeps) {
  let context: { channel?: string; device: DeviceClass } | null = null;
  /** The furthest step reached (-1: none yet). */
  let furthest = -1;
  const queued: FormEvent[] = [];
  const counted = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    if (!context || queued.length === 0) return;
    const events = queued.splice(0, FORM_EVENTS_MAX);
    const about = context;
    // The session is there as a rule (asked for with the form's look); a beacon waits for it if not.
    void formSession.current().then((session) => {
      if (!session) return;
      const body: FormEventsBody = {
        form_session: session,
        ...(about.channel ? { channel: about.channel } : {}),
        device: about.device,
        events,
      };
      send(FORM_EVENTS_URL, JSON.stringify(body));
    });
    if (queued.length > 0) flush();
  }

  function queue(step: FormStep, reason: FormReason): void {
    const key = `${step}:${reason}`;
    // A gift sent, a thank-you, a decline…: the proxy counts what it saw itself; a beacon's would count nothing.
    if (counted.has(key) || isProxyCounted({ step, reason })) return;
    counted.add(key);
    queued.push({ step, reason });
    if (queued.length >= FORM_EVENTS_MAX) flush();
    else if (context) timer ??= setTimeout(flush, FORM_EVENTS_FLUSH_MS);
  }

  const hidden = () => {
    if (document.visibilityState === "hidden") flush();
  };
  target.addEventListener("pagehide", flush);
  target.document.addEventListener("visibilitychange", hidden);

  return {
    /** The page's viewport width and channel, from the form's look: sending may begin. */
    about(width: number | undefined, channel: string | undefined): void {
      if (context || width === undefined) return;
      context = { device: deviceClassOf(width), ...(channel ? { channel } : {}) };
      if (queued.length > 0) timer ??= setTimeout(flush, FORM_EVENTS_FLUSH_MS);
    },
    /** The donor reached `step` (and so every step before it). */
    reach(step: FormStep): void {
      const index = FORM_STEPS.indexOf(step);
      for (let at = furthest + 1; at <= index; at++) queue(FORM_STEPS[at]!, "reached");
      furthest = Math.max(furthest, index);
    },
    /** The form stopped the donor (the page's `code`, a refused `field`): counted at the furthest step. */
    stop(code: string, field?: string): void {
      const reason = reasonOf(code, field);
      // A donor who has given and is thanked has not left: closing the form then says nothing.
      if (reason && furthest >= 0 && furthest < FORM_STEPS.length - 1) queue(FORM_STEPS[furthest]!, reason);
    },
    /** Sends what waits now. */
    flush,
    /** Stops listening to the page's hiding (what waits is sent first). */
    close(): void {
      flush();
      target.removeEventListener("pagehide", flush);
      target.document.removeEventListener("visibilitychange", hidden);
    },
  };
}
export type FormEvents = ReturnType<typeof createFormEvents>;
