/**
 * The rules of the elements' attributes that the dashboard's designer checks a design with too:
 * `<givekit-goal>`'s, `<givekit-wall>`'s, `<givekit-leaderboard>`'s and `<givekit-optin>`'s, and
 * those of `<givekit-donate>` not in patterns.ts or money.ts (its heading, its SMS program's name,
 * its monthly invitation). Held once: each element reads its attributes with them (widget/goal,
 * wall, leaderboard, optin, donate/base), and the designer and the proxy check a design with them
 * (contract/saved-forms.ts checkDesign), each problem worded as the element words it. Plain
 * values and functions, no zod: an element's chunk takes only what it uses.
 */
import { LEADERBOARD_LIMIT_MAX, WALL_LIMIT_MAX } from "./gala";
import { isPositiveAmount, toCents } from "./money";
import { codePoints } from "./patterns";

/** The fewest seconds between a goal's or a leaderboard's asks: more often only repeats the proxy's cached answer. */
export const REFRESH_MIN_S = 15;
export const REFRESH_EXPECTED = `a whole number of seconds, at least ${REFRESH_MIN_S}`;

/** A whole number from `min` to `max` as an attribute writes it (as Number reads it: " 20 " is 20), or null. */
export function wholeNumber(value: string, min: number, max = Infinity): number | null {
  const number = +value;
  return Number.isInteger(number) && number >= min && number <= max ? number : null;
}
/** What a wall's and a leaderboard's `limit` must be. */
export const WALL_LIMIT_EXPECTED = `a whole number from 1 to ${WALL_LIMIT_MAX}`;
export const LEADERBOARD_LIMIT_EXPECTED = `a whole number from 1 to ${LEADERBOARD_LIMIT_MAX}`;
export { LEADERBOARD_LIMIT_MAX, WALL_LIMIT_MAX };

/** `<givekit-wall amounts>`: the gifts' amounts shown (the default) or hidden. */
export const WALL_AMOUNTS = ["shown", "hidden"] as const;
export const WALL_AMOUNTS_EXPECTED = '"hidden" or "shown"';
/** `<givekit-leaderboard of>` (contract/gala.ts LEADERBOARD_KINDS). */
export const LEADERBOARD_OF_EXPECTED = '"teams" or "fundraisers"';

/** An http or https address, resolved against `base` (an element's page); null when it is neither. */
export function webUrl(value: string, base?: string): URL | null {
  try {
    const url = new URL(value, base);
    return /^https?:$/.test(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/** A reader of trimmed text of 1 to `max` characters (code points): the text, or undefined. */
export const textUpTo =
  (max: number) =>
  (value: string): string | undefined => {
    const trimmed = value.trim();
    const length = codePoints(trimmed);
    return length >= 1 && length <= max ? trimmed : undefined;
  };

/** The opt-in's list name, and the SMS program named in a disclosure (`program-name`, the opt-in's and the donate form's). */
export const LIST_MAX = 100;
export const LIST_EXPECTED = `the name of a list (1 to ${LIST_MAX} characters)`;
export const PROGRAM_NAME_MAX = 100;
export const PROGRAM_NAME_EXPECTED = `the name of the SMS program shown in the disclosure (1 to ${PROGRAM_NAME_MAX} characters)`;
/** The opt-in's links, required (with `program-name`): its disclosure is informed consent only with them. */
export const TERMS_URL_REQUIRED = "an http or https URL of the SMS terms";
export const PRIVACY_URL_REQUIRED = "an http or https URL of the privacy policy";
/**
 * A donate form's SMS box (`fields="sms"`) is an opt-in like `<givekit-optin>`'s: its disclosure
 * names the program and links its terms and privacy policy, so without all three the form leaves it out.
 */
export const SMS_NEEDS_DISCLOSURE =
  'fields="sms" needs program-name, terms-url and privacy-url (its disclosure names them); the SMS box is left out';
/** The fields a donate form may turn on (`fields`, each optionally `:required`); name, e-mail and card are always asked. */
export const OPTIONAL_FIELDS = [
  "full-name",
  "phone",
  "address",
  "memo",
  "dedication",
  "pledge-wall",
  "sms",
  "anonymous",
] as const;
/** An entry of `fields` as the form reads it (lower-cased, trimmed): a field, optionally `:required`. */
export const FIELD_ENTRY = /* @__PURE__ */ new RegExp(`^(${OPTIONAL_FIELDS.join("|")})(:required)?$`);
/** The most preset amounts a donate form shows (`amounts`, `monthly-amounts`), told as the form tells it. */
export const PRESETS_MAX = 8;
export const PRESETS_OVER = `lists more than ${PRESETS_MAX}; the rest are left out`;
/** How long a preset's description may be ("25:A week of meals"), in characters. */
export const PRESET_LABEL_MAX = 80;
const PRESET_ENTRY = /^([^:]*?)\s*(?::\s*(.*))?$/s;
export const PRESET_EXPECTED = `an amount (with a description of at most ${PRESET_LABEL_MAX} characters)`;
/**
 * One entry of a presets attribute (`amounts`, `monthly-amounts`): its amount in cents and what it
 * does where the nonprofit says, or null when it is not an amount or its description is empty or
 * too long.
 *
 * @example
 * presetEntry(" 25 : A week of meals") // { cents: 2500, label: "A week of meals" }
 */
export function presetEntry(entry: string): { cents: number; label?: string } | null {
  const [, amount = "", label] = PRESET_ENTRY.exec(entry.trim()) ?? [];
  const said = label?.trim();
  if (
    !isPositiveAmount(amount) ||
    (said !== undefined && (said === "" || codePoints(said) > PRESET_LABEL_MAX))
  )
    return null;
  return { cents: toCents(amount), ...(said ? { label: said } : {}) };
}
/** The longest heading a donate form takes (`heading`), in characters. */
export const HEADING_MAX = 120;
/** What an address attribute must be (`terms-url`, `success-url`, `donate-url`…). */
export const WEB_URL_EXPECTED = "an http or https URL";

/**
 * `monthly-prompt` (a donate form's): after a one-time amount is chosen, an offer to give monthly
 * instead, of a share of that amount (`"30%"`; a third when the attribute is empty) or of a set
 * amount (`"20"`). Either way rounded up to a whole unit.
 */
export type MonthlyPrompt = { share: number } | { cents: number };
export const MONTHLY_PROMPT_SHARE = 100 / 3;
const MONTHLY_PROMPT_VALUE = /^(?:(\d{1,2}(?:\.\d+)?)%|(\d+(?:\.\d{1,2})?))?$/;
export const MONTHLY_PROMPT_EXPECTED = 'empty, a share such as "30%" or an amount such as "20"';

/** `monthly-prompt`'s value as the invitation it asks for, or null when it is none. */
export function monthlyPromptOf(value: string): MonthlyPrompt | null {
  const [matched, share, amount] = MONTHLY_PROMPT_VALUE.exec(value.trim()) ?? [];
  if (matched === undefined || (share && Number(share) <= 0) || (amount && !isPositiveAmount(amount)))
    return null;
  return amount ? { cents: toCents(amount) } : { share: share ? Number(share) : MONTHLY_PROMPT_SHARE };
}
