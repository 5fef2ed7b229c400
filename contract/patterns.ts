/**
 * Every pattern of givekit's API, once (with request-patterns.ts: those only a whole request's
 * check reads): plain RegExps and small functions, so the widget can check a value without a zod
 * schema's bytes. contract/api.ts and contract/money.ts build their
 * schemas from these same constants; nothing else in the tree writes its own copy.
 *
 * @example
 * KEYWORD_PATTERN.test("HOPE"); // true
 * isAmount("007");              // false: no leading zeros
 */

/** A fundraiser's or team's id as givekit's API takes it. */
export const PEER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** A campaign keyword: 3 to 15 letters and digits. */
export const KEYWORD_PATTERN = /^[A-Za-z0-9]{3,15}$/;
/** What a page author is told a keyword attribute must be. */
export const KEYWORD_EXPECTED = "3 to 15 letters and digits, such as HOPE";
/** A short code: 4 to 6 digits. */
export const SHORTCODE_PATTERN = /^\d{4,6}$/;
/** What a page author is told a shortcode attribute must be. */
export const SHORTCODE_EXPECTED = "4 to 6 digits, such as 71777";
/** Plain decimal money: no exponent, sign, spaces, leading zeros or more than two decimals ("25", "25.5"). */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,8})(\.\d{1,2})?$/;
/** A fee rate such as "0.03" (3 %); at most six decimals. */
export const RATE_PATTERN = /^(0|[1-9]\d?)(\.\d{1,6})?$/;
/** An ISO 4217 currency code such as USD. */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
/** A donation's reference, as the proxy makes them: "gk_" and 20 hex digits. */
export const REFERENCE_PATTERN = /^gk_[0-9a-f]{20}$/;
/**
 * A channel tag (`source="spring-gala"`, or a campaign's `source`): where a gift came from, as the
 * fundraising service's own reports show it. The upstream's `source` holds 64 characters, split
 * as `givekit.` (8), the tag (at most 32), `.` (1) and the donation's reference (23), so the
 * reconciler still finds its gift; no `.` in a tag, which separates the parts.
 */
/**
 * Whether the donor covers the processing fee (`cover-fee`): `off` (never offered), `optional` (a
 * box left unticked, the default), `preselected` (the box ticked), `required` (always added, said so).
 */
export const COVER_FEE_MODES = ["off", "optional", "preselected", "required"] as const;
/** How the donate form asks (`layout`): in steps (amount, you, card), or on one page (for sidebars). */
export const LAYOUTS = ["steps", "single"] as const;
export const CHANNEL_TAG_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
/** What a page author or an operator is told a channel tag must be. */
export const CHANNEL_TAG_EXPECTED = "1 to 32 letters, digits, - and _";

/** The recurring frequencies a campaign may offer (a one-time gift has none). */
export const RECURRING_FREQUENCIES = ["monthly", "quarterly", "annually"] as const;
/** What a peer can be: a fundraiser, or a team of fundraisers. */
export const PEER_KINDS = ["fundraiser", "team"] as const;
/** A campaign's minimum gift when its settings name none. */
export const DEFAULT_MIN_AMOUNT = "5.00";

/** The longest name of an SMS list. */
export const LIST_NAME_MAX = 100;
/** The longest event id, event type or form id. */
export const TARGET_TEXT_MAX = 64;
/** The longest origin ("https://give.example.org") a campaign's answer names. */
export const ORIGIN_MAX = 200;
/** The longest e-mail address (RFC 5321's path limit less its brackets). */
export const EMAIL_MAX = 254;
/** The longest local part of an e-mail address, the part before the @ (RFC 5321). */
export const EMAIL_LOCAL_MAX = 64;
/** The longest full name a donor may give; a first or last name is shorter. */
export const FULL_NAME_MAX = 200;
/** The longest first or last name (a donor's, or an SMS subscriber's). */
export const NAME_MAX = 100;
/** The longest street address. */
export const STREET_MAX = 200;
/** The longest city or state. */
export const CITY_MAX = 100;
/** The longest postal code outside the US. */
export const POSTAL_CODE_MAX = 20;
/** The shortest and the longest consent text: an SMS disclosure as the person saw it. */
export const CONSENT_TEXT_MIN = 20;
export const CONSENT_TEXT_MAX = 2000;
/** The longest name a dedication may carry (contract/dedication.ts). */
export const DEDICATION_NAME_MAX = 100;
/** The longest memo a donor may write. */
export const MEMO_MAX = 500;
/**
 * The longest memo sent upstream: the donor's message and a dedication's line
 * (contract/dedication.ts). The service names no limit; the sandbox holds givekit to this one.
 */
export const UPSTREAM_MEMO_MAX = 1000;

/** Keywords the SMS service keeps for itself; no campaign may use them (compared without case). */
export const RESERVED_KEYWORDS: readonly string[] = ["HELP", "GIVE", "STOP"];

/** A text's length as zod counts it: in code points (an emoji is one), not UTF-16 units. */
export const codePoints = (text: string): number => [...text].length;

/** True when `value` is a string the pattern matches. */
export const matches = (pattern: RegExp, value: unknown): value is string =>
  typeof value === "string" && pattern.test(value);

/** A money amount as it travels: "25", "25.50"; not "007", "1e3" or "-5". */
export const isAmount = (value: unknown): value is string => matches(AMOUNT_PATTERN, value);

export const isReservedKeyword = (keyword: string): boolean =>
  RESERVED_KEYWORDS.includes(keyword.toUpperCase());
