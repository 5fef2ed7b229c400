import {
  FIELD_ENTRY,
  HEADING_MAX,
  MONTHLY_PROMPT_EXPECTED,
  monthlyPromptOf,
  OPTIONAL_FIELDS,
  PRESET_EXPECTED,
  presetEntry,
  PRESETS_MAX,
  PRESETS_OVER,
  PROGRAM_NAME_MAX,
  SMS_NEEDS_DISCLOSURE,
  type MonthlyPrompt,
} from "../../../contract/element-rules";
import { DONATE_ATTRIBUTES } from "../../../contract/donate-attributes";
import { FULL_NAME_LOCALES } from "../../../contract/locale-traits";
import { toCents } from "../../../contract/money";
import {
  CHANNEL_TAG_EXPECTED,
  CHANNEL_TAG_PATTERN,
  COVER_FEE_MODES,
  LAYOUTS,
  PEER_ID_PATTERN,
  RECURRING_FREQUENCIES,
  TARGET_TEXT_MAX,
} from "../../../contract/patterns";
import type { Locale } from "../../i18n";
import {
  KEYWORD,
  matching,
  oneOf,
  POSITIVE_AMOUNT,
  readAttributes,
  refuse,
  SHORTCODE,
  text,
  type AttributeResult,
} from "../../shared/attributes";

/** A `[givekit]` console line about <givekit-donate>'s set-up: `what` is wrong, and what the form does instead. */
export const warn = (what: string) => console.warn(`[givekit] <givekit-donate>: ${what}.`);

/** How often a donor may give: once, or one of the contract's recurring frequencies. */
export const FREQUENCIES = ["once", ...RECURRING_FREQUENCIES] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** Which campaign the donation is for: shortcode+keyword, or event_id+event_type. */
export interface DonateTarget {
  shortcode?: string;
  keyword?: string;
  event_id?: string;
  event_type?: string;
}

/**
 * The fields a nonprofit may turn on with `fields` (the contract's, which designs are checked with
 * too); name, e-mail and card are always asked, the name as first and last unless `full-name` asks
 * one field (sent as `full_name`).
 */
export { OPTIONAL_FIELDS };
export type OptionalField = (typeof OPTIONAL_FIELDS)[number];
/** Each field turned on: true when the donor must fill it in (check boxes never must). */
export type DonateFields = Partial<Record<OptionalField, boolean>>;

/** Whether the form asks for a field: only if the nonprofit turned it on (the SMS opt-in needs the phone). */
export const asksFor = (on: DonateFields, field: OptionalField) =>
  field in on || (field === "phone" && "sms" in on);
// The modes of `cover-fee` and `layout` are the contract's (contract/patterns.ts), which saved forms are checked with too.
export { COVER_FEE_MODES, LAYOUTS };
export type CoverFeeMode = (typeof COVER_FEE_MODES)[number];

// `monthly-prompt`'s rule is the contract's (contract/element-rules.ts), which designs are checked with too.
export type { MonthlyPrompt };

export type Layout = (typeof LAYOUTS)[number];

/**
 * The `fields` attribute: a comma list of OPTIONAL_FIELDS, each optionally `:required` (a check
 * box's does nothing). An entry that names no field is left out with a warning naming it, and the
 * form shows the rest.
 *
 * @example
 * readFields("phone:required, address"); // { phone: true, address: false }
 */
export function readFields(value: string | null): DonateFields {
  const fields: DonateFields = {};
  for (const part of (value ?? "").split(",")) {
    const entry = part.trim().toLowerCase();
    const [, name, required] = FIELD_ENTRY.exec(entry) ?? [];
    if (name) fields[name as OptionalField] = Boolean(required);
    else if (entry) warn(`"${entry}" in "fields" is not a field`);
  }
  return fields;
}

/**
 * The SMS box is an opt-in like <givekit-optin>'s: its disclosure names the program and links its
 * terms and privacy policy, so without all three it is left out (and the console says why).
 */
function smsNeedsItsDisclosure(
  fields: DonateFields,
  programName: string | null,
  termsUrl: string | null,
  privacyUrl: string | null,
): DonateFields {
  if (!("sms" in fields) || (programName && termsUrl && privacyUrl)) return fields;
  warn(SMS_NEEDS_DISCLOSURE);
  const { sms: _sms, ...rest } = fields;
  return rest;
}

/** Preset amounts in cents, and what each does where the nonprofit says ("25:A week of meals"). */
export interface Presets {
  amounts: number[];
  labels: Record<number, string>;
}

/**
 * A presets attribute (`amounts`, `monthly-amounts`): "25:A week of meals,50,100:A month of
 * shelter", at most PRESETS_MAX. An entry that is not an amount (or whose description is too
 * long) is dropped with a `[givekit]` line and the rest kept; with none left, `fallback`.
 *
 * @example
 * readPresets("amounts", "25:A week of meals,abc,50", DEFAULT_AMOUNTS)
 * // { amounts: [2500, 5000], labels: { 2500: "A week of meals" } }, and a line about "abc"
 */
export function readPresets(name: string, value: string | null, fallback: string): Presets {
  const presets: Presets = { amounts: [], labels: {} };
  for (const entry of (value ?? fallback).split(",")) {
    const preset = presetEntry(entry);
    if (!preset) {
      if (entry.trim())
        warn(`"${entry.trim().slice(0, 40)}" in "${name}" is not ${PRESET_EXPECTED}; it is left out`);
      continue;
    }
    const { cents, label } = preset;
    if (presets.amounts.includes(cents)) continue;
    if (presets.amounts.length === PRESETS_MAX) {
      warn(`"${name}" ${PRESETS_OVER}`);
      break;
    }
    presets.amounts.push(cents);
    if (label) presets.labels[cents] = label;
  }
  return presets.amounts.length > 0 || value === null ? presets : readPresets(name, null, fallback);
}

export interface DonateProps {
  proxyUrl: string;
  target: DonateTarget;
  formId: string | null;
  /** The channel tag (`source="spring-gala"`) the gift carries to the fundraising service's reports. */
  source?: string;
  /** Preset amounts, in cents, and their descriptions (`amounts`). */
  amounts: number[];
  amountLabels: Record<number, string>;
  /** The presets of a recurring gift (`monthly-amounts`), if the nonprofit gives its own. */
  monthlyAmounts: Presets | null;
  /** In cents; a value that is not a preset fills the "other" amount. Null: the first preset of the frequency shown. */
  defaultAmount: number | null;
  frequencies: Frequency[];
  defaultFrequency: Frequency;
  fundraiser: string | null;
  team: string | null;
  locale: Locale;
  /** The languages the donor may switch between (`locales="en,es,vi"`, the element's or its saved form's), as written. */
  locales: string | null;
  heading: string | null;
  programName: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
  /** The optional fields turned on (`fields`); none by default. */
  fields: DonateFields;
  layout: Layout;
  /** `data-layer`: a charged gift is pushed to `window.dataLayer` as a GA4 `purchase`. */
  dataLayer: boolean;
  /** Where the donor goes after the thank-you, as given: allowedSuccessUrl (outcome/tell.ts) says, once the campaign is known, if it may. */
  successUrl: string | null;
  /** Whether the donor covers the processing fee (`cover-fee`). */
  coverFee: CoverFeeMode;
  /** The invitation to give monthly instead, if the nonprofit turned it on. */
  monthlyPrompt: MonthlyPrompt | null;
}

export const DEFAULT_AMOUNTS = "25,50,100,250";
export const DEFAULT_FREQUENCIES = "once,monthly";

const ID = matching(PEER_ID_PATTERN, "an id of letters, digits, - and _");
export const LAYOUT = oneOf(LAYOUTS, '"steps" or "single"');
export const FREQUENCY = oneOf(FREQUENCIES, '"once", "monthly", "quarterly" or "annually"');
const COVER_FEE = oneOf(COVER_FEE_MODES, '"off", "optional", "preselected" or "required"');

/** `monthly-prompt` as its rule reads it; a value that is none is named and the invitation left off. */
function readMonthlyPrompt(value: string | null): MonthlyPrompt | null {
  if (value === null) return null;
  const prompt = monthlyPromptOf(value);
  if (!prompt) warn(`"monthly-prompt" must be ${MONTHLY_PROMPT_EXPECTED}; it is left off`);
  return prompt;
}

export { DONATE_ATTRIBUTES };

/**
 * Validates <givekit-donate>'s attributes. A bad one is named, so the page author can fix it.
 *
 * @example
 * readDonateAttributes((name) => element.getAttribute(name));
 * // { ok: true, props: { target: { shortcode: "71777", keyword: "HOPE" }, amounts: [2500, 5000, …], … } }
 */
export function readDonateAttributes(get: (name: string) => string | null): AttributeResult<DonateProps> {
  return readAttributes(get, (attr) => {
    const shortcode = attr("shortcode", SHORTCODE);
    const keyword = attr("keyword", KEYWORD);
    const eventId = attr("event-id", text(TARGET_TEXT_MAX));
    const eventType = attr("event-type", text(TARGET_TEXT_MAX));
    const target: DonateTarget =
      shortcode && keyword
        ? { shortcode, keyword: keyword.toUpperCase() }
        : eventId && eventType
          ? { event_id: eventId, event_type: eventType }
          : refuse(
              keyword
                ? "shortcode"
                : shortcode
                  ? "keyword"
                  : eventId
                    ? "event-type"
                    : eventType
                      ? "event-id"
                      : "keyword",
              'is required: name the campaign with "shortcode" and "keyword", or "event-id" and "event-type"',
            );
    const { amounts, labels: amountLabels } = readPresets("amounts", get("amounts"), DEFAULT_AMOUNTS);
    const monthly = get("monthly-amounts");
    const defaultAmount = attr("default-amount", POSITIVE_AMOUNT);
    const frequencies = [...new Set(attr.list("frequencies", DEFAULT_FREQUENCIES, FREQUENCY))] as Frequency[];
    const defaultFrequency = (attr("default-frequency", FREQUENCY) ?? frequencies[0]) as Frequency;
    if (!frequencies.includes(defaultFrequency))
      refuse("default-frequency", 'must be one of the "frequencies"');
    const programName = attr("program-name", text(PROGRAM_NAME_MAX)) ?? null;
    const termsUrl = attr.url("terms-url") ?? null;
    const privacyUrl = attr.url("privacy-url") ?? null;
    const locale = attr.locale();
    const fields = smsNeedsItsDisclosure(readFields(get("fields")), programName, termsUrl, privacyUrl);
    // Where the family name comes first (Chinese, Korean), one name field unless the page says otherwise.
    if (FULL_NAME_LOCALES.includes(locale) && !("full-name" in fields)) fields["full-name"] = false;
    return {
      proxyUrl: attr.proxy(),
      target,
      formId: attr("form-id", text(TARGET_TEXT_MAX)) ?? null,
      source: attr("source", matching(CHANNEL_TAG_PATTERN, CHANNEL_TAG_EXPECTED)),
      amounts,
      amountLabels,
      monthlyAmounts: monthly === null ? null : readPresets("monthly-amounts", monthly, DEFAULT_AMOUNTS),
      defaultAmount: defaultAmount ? toCents(defaultAmount) : null,
      frequencies,
      defaultFrequency,
      fundraiser: attr("fundraiser", ID) ?? null,
      team: attr("team", ID) ?? null,
      locale,
      locales: get("locales"),
      heading: attr("heading", text(HEADING_MAX)) ?? null,
      programName,
      termsUrl,
      privacyUrl,
      fields,
      layout: (attr("layout", LAYOUT) ?? "steps") as Layout,
      dataLayer: get("data-layer") !== null,
      successUrl: attr.url("success-url") ?? null,
      coverFee: (attr("cover-fee", COVER_FEE) ?? "optional") as CoverFeeMode,
      monthlyPrompt: readMonthlyPrompt(get("monthly-prompt")),
    };
  });
}
