/**
 * Designs and saved forms: a design of any element the staff make in the dashboard's designer
 * (/dashboard/forms), given as its snippet; a donate design saved under a name, which
 * `<givekit-donate form="year-end">` takes with its campaign's settings. The rules a design is
 * held to live here, once (the elements' own in contract/element-rules.ts, which the elements
 * read their attributes with): the designer shows them as the staff type, the proxy refuses a
 * save that breaks one, and the element reads the saved attributes with the same readers it
 * reads its own with. No zod and nothing of node or the DOM: the widget imports the
 * name's rule and the theme's properties.
 */
import {
  HEADING_MAX,
  LEADERBOARD_LIMIT_MAX,
  LEADERBOARD_OF_EXPECTED,
  LEADERBOARD_LIMIT_EXPECTED,
  LIST_EXPECTED,
  LIST_MAX,
  MONTHLY_PROMPT_EXPECTED,
  monthlyPromptOf,
  FIELD_ENTRY,
  PRESET_EXPECTED,
  presetEntry,
  PRESETS_MAX,
  PRESETS_OVER,
  PRIVACY_URL_REQUIRED,
  PROGRAM_NAME_EXPECTED,
  PROGRAM_NAME_MAX,
  REFRESH_EXPECTED,
  REFRESH_MIN_S,
  SMS_NEEDS_DISCLOSURE,
  TERMS_URL_REQUIRED,
  textUpTo,
  WALL_AMOUNTS,
  WALL_AMOUNTS_EXPECTED,
  WALL_LIMIT_EXPECTED,
  WALL_LIMIT_MAX,
  WEB_URL_EXPECTED,
  webUrl,
  wholeNumber,
} from "./element-rules";
import { DONATE_ATTRIBUTES, PAGE_OWN_ATTRIBUTES } from "./donate-attributes";
import { LEADERBOARD_KINDS } from "./gala";
import { LOCALES, matchLocale } from "./locales";
import { isPositiveAmount, toCents } from "./money";
import {
  CHANNEL_TAG_PATTERN,
  COVER_FEE_MODES,
  LAYOUTS,
  PEER_ID_PATTERN,
  RECURRING_FREQUENCIES,
} from "./patterns";

import { FORM_NAME_EXPECTED, FORM_NAME_PATTERN, THEME_PROPERTIES } from "./saved-form-names";

export { FORM_NAME_EXPECTED, FORM_NAME_PATTERN, THEME_PROPERTIES };
export const isFormName = (value: unknown): value is string =>
  typeof value === "string" && FORM_NAME_PATTERN.test(value);

/** The largest design body the dashboard accepts, in bytes of JSON. */
export const FORM_DESIGN_MAX_BYTES = 16_384;
/** The longest value of one saved attribute, in characters. */
export const FORM_ATTRIBUTE_MAX = 1000;

/** `<givekit-donate>`'s attributes a design may set (and `<givekit-button>` hands on to the form it opens). */
const DONATE_DESIGN = /* @__PURE__ */ DONATE_ATTRIBUTES.filter(
  (name) => !(PAGE_OWN_ATTRIBUTES as readonly string[]).includes(name),
);

/**
 * The attributes a design may set, per element (widget/REFERENCE.md documents each). The campaign
 * (shortcode, keyword) is the element's own, and so are `proxy` and `form` itself: a page's
 * snippet names them.
 */
export const FORM_ATTRIBUTES = {
  donate: DONATE_DESIGN,
  button: ["label", ...DONATE_DESIGN],
  optin: ["list", "program-name", "terms-url", "privacy-url", "locale"],
  goal: ["refresh", "locale"],
  wall: ["limit", "amounts", "locale"],
  leaderboard: ["of", "limit", "donate-url", "refresh", "locale"],
} as const;
export type FormElement = keyof typeof FORM_ATTRIBUTES;
export const FORM_ELEMENTS = /* @__PURE__ */ Object.keys(FORM_ATTRIBUTES) as FormElement[];
/**
 * The elements a design is saved for: only `<givekit-donate>` reads a saved form (`form="…"`).
 * Another element's design is its snippet, its attributes written out.
 */
export const SAVED_FORM_ELEMENTS: readonly FormElement[] = ["donate"];

export type ThemeKey = keyof typeof THEME_PROPERTIES | "background";
export type FormTheme = Partial<Record<ThemeKey, string>>;
/** What the element draws with where the theme says nothing (widget/shared/host.css). */
export const THEME_DEFAULTS = { accent: "#1f6feb", text: "#1b1f24", background: "#ffffff" } as const;

/** A design as the dashboard saves it and the campaign's answer carries it. */
export interface FormDesign {
  element: FormElement;
  shortcode: string;
  keyword: string;
  /** Attribute name → value, as they would be written on the element. */
  attributes: Record<string, string>;
  theme: FormTheme;
}

/** What a saved form's version is: its design, its number, who saved it and when. */
export interface SavedFormVersion {
  name: string;
  version: number;
  design: FormDesign;
  /** The invite's name of the staff member who saved it. */
  author: string;
  /** ISO 8601. */
  saved_at: string;
}

/** GET /v1/campaigns/…?form=name: the campaign's settings with this, the form's latest version. */
export interface ServedForm {
  name: string;
  version: number;
  attributes: Record<string, string>;
  theme: Partial<Record<keyof typeof THEME_PROPERTIES, string>>;
}

// ── contrast (WCAG 2.2) ─────────────────────────────────────────────────────────────────

/** Text against its background (WCAG 2.2 1.4.3, AA). */
export const TEXT_CONTRAST_MIN = 4.5;
/** A focus ring, a border, an input's edge against what is beside it (1.4.11, AA). */
export const UI_CONTRAST_MIN = 3;
/** The smallest font size a phone is given, in CSS pixels. */
export const FONT_SIZE_MIN_PX = 16;

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i;

/** A colour as red, green, blue (0-255); null when it is not a colour (#rgb, #rrggbb, rgb(r, g, b)). */
export function parseColour(value: string): [number, number, number] | null {
  const text = value.trim();
  const hex = HEX.exec(text)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((d) => d + d).join("") : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = RGB.exec(text);
  if (!rgb) return null;
  const channels = rgb.slice(1, 4).map(Number) as [number, number, number];
  return channels.every((c) => c <= 255) ? channels : null;
}

const linear = (channel: number) => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const luminance = ([r, g, b]: [number, number, number]) =>
  0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);

/** The contrast ratio of two colours (1 to 21), as WCAG 2.2 defines it. */
export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [light, dark] = [luminance(a), luminance(b)].toSorted((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** A ratio as the designer and the errors print it: rounded down to two decimals ("2.93:1"). */
export const ratioText = (ratio: number) => `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;

/** A font size in px or rem (1rem = 16px); null when it is neither. */
export function fontSizePx(value: string): number | null {
  const match = /^(\d{1,3}(?:\.\d{1,3})?)(px|rem|em)$/.exec(value.trim());
  if (!match) return null;
  return Number(match[1]) * (match[2] === "px" ? 1 : 16);
}

const FONT_LIST = /^[\p{L}\p{N} ,'"-]{1,120}$/u;
const RADIUS = /^\d{1,3}(?:\.\d{1,2})?(px|em|rem|%)$/;

// ── the checks ──────────────────────────────────────────────────────────────────────────

/** A problem with a design: the control (`amounts`, `theme.accent`, `name`…) and what is wrong. */
export interface DesignProblem {
  field: string;
  message: string;
}
/** What a design is checked against: the campaign it names, and the proxy's allowed origins. */
export interface DesignContext {
  campaign: { min_amount: string; max_amount: string; recurring_frequencies: readonly string[] } | null;
  allowedOrigins: readonly string[];
}

/** An amounts list ("50:A week of meals,100"): its amounts in cents, or the entry that is not one (presetEntry). */
export function readAmountList(value: string): { cents: number[] } | { bad: string } {
  const cents: number[] = [];
  for (const entry of value.split(",")) {
    const preset = presetEntry(entry);
    if (!preset) return { bad: entry.trim() || "(empty)" };
    cents.push(preset.cents);
  }
  return { cents };
}

/** Whether `url` is an http(s) address whose origin is one of `origins`. */
function originAllowed(url: string, origins: readonly string[]): boolean | "not a url" {
  const parsed = webUrl(url);
  return parsed ? origins.includes(parsed.origin) : "not a url";
}

type Add = (field: string, message: string) => void;

/**
 * Every problem of a design, checked as the element and the proxy would: the element's own rules
 * for each attribute (contract/element-rules.ts, patterns.ts, money.ts), the campaign's limits,
 * the allowed origins, and the theme's contrast and size (WCAG 2.2 AA). Empty when its snippet
 * may be pasted (and a donate design saved: checkSavedDesign).
 *
 * @example
 * checkDesign(design, { campaign, allowedOrigins: ["https://hope.example"] });
 * // [{ field: "theme.accent", message: "contrast with white text is 2.93:1; at least 4.5:1 is needed" }]
 */
export function checkDesign(design: FormDesign, context: DesignContext): DesignProblem[] {
  const problems: DesignProblem[] = [];
  const add: Add = (field, message) => problems.push({ field, message });
  const allowed = Object.hasOwn(FORM_ATTRIBUTES, design.element)
    ? (FORM_ATTRIBUTES[design.element] as readonly string[])
    : undefined;
  if (!allowed) {
    add("element", `must be one of ${FORM_ELEMENTS.join(", ")}`);
    return problems;
  }
  if (!context.campaign)
    add("campaign", `${design.shortcode}/${design.keyword} is not a campaign this proxy serves`);
  const attrs = design.attributes;
  for (const [name, value] of Object.entries(attrs)) {
    if (!allowed.includes(name)) add(name, `is not an attribute of <givekit-${design.element}>`);
    else if (typeof value !== "string" || value.length > FORM_ATTRIBUTE_MAX)
      add(name, `must be text of at most ${FORM_ATTRIBUTE_MAX} characters`);
  }
  if (problems.length > 0) return problems;

  const locale = attrs.locale;
  if (locale !== undefined && matchLocale(locale) === null)
    add("locale", `must be a language givekit speaks: ${LOCALES.join(", ")}`);
  const { locales } = attrs;
  // Each by its code, as the form's language switch offers them (widget/shared/language-switch.ts).
  for (const tag of locales?.split(",") ?? [])
    if (!(LOCALES as readonly string[]).includes(tag.trim()))
      add("locales", `"${tag.trim().slice(0, 40)}" is not a language givekit speaks (${LOCALES.join(", ")})`);
  const element = design.element;
  if (element === "donate" || element === "button") checkGift(attrs, context, add);
  else if (element === "optin") checkOptin(attrs, add);
  else checkFigures(element, attrs, add);
  problems.push(...checkTheme(design.theme));
  return problems;
}

/**
 * A design that may be saved: checkDesign's problems, and an element that reads a saved form
 * (SAVED_FORM_ELEMENTS); another's design is refused, naming the element.
 */
export function checkSavedDesign(design: FormDesign, context: DesignContext): DesignProblem[] {
  if (!SAVED_FORM_ELEMENTS.includes(design.element))
    return [
      {
        field: "element",
        message: `a <givekit-${design.element}> design is not saved: only <givekit-donate> reads a saved form (form="…"); paste its snippet, its attributes written out`,
      },
    ];
  return checkDesign(design, context);
}

/** `<givekit-donate>`'s attributes (and `<givekit-button>`'s, which it hands on to the form). */
function checkGift(attrs: Record<string, string>, context: DesignContext, add: Add) {
  const { campaign } = context;
  const min = campaign ? toCents(campaign.min_amount) : 0;
  const max = campaign ? toCents(campaign.max_amount) : Infinity;
  const limits = campaign ? `from ${campaign.min_amount} to ${campaign.max_amount}` : "";
  const amountsOf = (name: string): number[] | null => {
    const value = attrs[name];
    if (value === undefined) return null;
    const read = readAmountList(value);
    if ("bad" in read) {
      add(name, `"${read.bad.slice(0, 40)}" is not ${PRESET_EXPECTED}, such as 50 or "50:A week of meals"`);
      return null;
    }
    if (read.cents.some((c) => c < min || c > max))
      add(name, `every amount must be ${limits}, the campaign's limits`);
    if (new Set(read.cents).size > PRESETS_MAX) add(name, PRESETS_OVER);
    return read.cents;
  };
  const amounts = amountsOf("amounts");
  const monthly = amountsOf("monthly-amounts");
  const fallback = amounts ?? [2500, 5000, 10000, 25000];
  const defaultAmount = attrs["default-amount"];
  if (defaultAmount !== undefined) {
    if (!isPositiveAmount(defaultAmount)) add("default-amount", "must be an amount such as 50 or 50.00");
    else if (![...fallback, ...(monthly ?? [])].includes(toCents(defaultAmount)))
      add("default-amount", "must be one of the amounts");
  }
  const frequencies = attrs.frequencies?.split(",").map((f) => f.trim()) ?? ["once", "monthly"];
  const offered = ["once", ...(campaign?.recurring_frequencies ?? RECURRING_FREQUENCIES)];
  for (const frequency of frequencies)
    if (!["once", ...RECURRING_FREQUENCIES].includes(frequency))
      add("frequencies", `"${frequency}" is not once, monthly, quarterly or annually`);
    else if (!offered.includes(frequency))
      add("frequencies", `the campaign does not take ${frequency} gifts`);
  const defaultFrequency = attrs["default-frequency"];
  if (defaultFrequency !== undefined && !frequencies.includes(defaultFrequency))
    add("default-frequency", "must be one of the frequencies");
  const oneOf = (name: string, values: readonly string[]) => {
    const value = attrs[name];
    if (value !== undefined && !values.includes(value)) add(name, `must be one of ${values.join(", ")}`);
  };
  oneOf("cover-fee", COVER_FEE_MODES);
  oneOf("layout", LAYOUTS);
  if (attrs.source !== undefined && !CHANNEL_TAG_PATTERN.test(attrs.source))
    add("source", "must be a tag of letters, digits, - and _");
  for (const name of ["fundraiser", "team"]) {
    const id = attrs[name];
    if (id !== undefined && !PEER_ID_PATTERN.test(id)) add(name, "must be an id of letters, digits, - and _");
  }
  for (const [name, longest] of [
    ["heading", HEADING_MAX],
    ["program-name", PROGRAM_NAME_MAX],
  ] as const) {
    const text = attrs[name];
    if (text !== undefined && textUpTo(longest)(text) === undefined)
      add(name, `must be 1 to ${longest} characters`);
  }
  for (const name of ["terms-url", "privacy-url"]) {
    const url = attrs[name];
    if (url !== undefined && !webUrl(url)) add(name, `must be ${WEB_URL_EXPECTED}`);
  }
  const fields = attrs.fields?.split(",").map((entry) => entry.trim().toLowerCase()) ?? [];
  for (const entry of fields)
    if (entry && !FIELD_ENTRY.test(entry)) add("fields", `"${entry.slice(0, 40)}" is not a field`);
  if (
    fields.some((entry) => entry.split(":")[0] === "sms") &&
    ["program-name", "terms-url", "privacy-url"].some((name) => attrs[name] === undefined)
  )
    add("fields", SMS_NEEDS_DISCLOSURE);
  const prompt = attrs["monthly-prompt"];
  if (prompt !== undefined && !monthlyPromptOf(prompt))
    add("monthly-prompt", `must be ${MONTHLY_PROMPT_EXPECTED}`);
  const success = attrs["success-url"];
  if (success !== undefined) {
    const verdict = originAllowed(success, context.allowedOrigins);
    if (verdict === "not a url") add("success-url", `must be ${WEB_URL_EXPECTED}`);
    else if (!verdict)
      add(
        "success-url",
        `must lead to one of the allowed origins (${context.allowedOrigins.join(", ") || "none"})`,
      );
  }
}

/** `<givekit-optin>`'s: the program's name and its two links, which informed consent needs, and a list. */
function checkOptin(attrs: Record<string, string>, add: Add) {
  for (const [name, required] of [
    ["program-name", PROGRAM_NAME_EXPECTED],
    ["terms-url", TERMS_URL_REQUIRED],
    ["privacy-url", PRIVACY_URL_REQUIRED],
  ] as const) {
    const value = attrs[name];
    const programName = name === "program-name";
    if (value === undefined) add(name, `is required: ${required}`);
    else if (programName ? textUpTo(PROGRAM_NAME_MAX)(value) === undefined : !webUrl(value))
      add(name, `must be ${programName ? PROGRAM_NAME_EXPECTED : WEB_URL_EXPECTED}`);
  }
  const { list } = attrs;
  if (list !== undefined && textUpTo(LIST_MAX)(list) === undefined) add("list", `must be ${LIST_EXPECTED}`);
}

/** `<givekit-goal>`'s, `<givekit-wall>`'s and `<givekit-leaderboard>`'s: how many, how often, of what. */
function checkFigures(element: "goal" | "wall" | "leaderboard", attrs: Record<string, string>, add: Add) {
  const wall = element === "wall";
  const { limit, refresh, amounts, of } = attrs;
  const donateUrl = attrs["donate-url"];
  if (limit !== undefined && wholeNumber(limit, 1, wall ? WALL_LIMIT_MAX : LEADERBOARD_LIMIT_MAX) === null)
    add("limit", `must be ${wall ? WALL_LIMIT_EXPECTED : LEADERBOARD_LIMIT_EXPECTED}`);
  if (refresh !== undefined && wholeNumber(refresh, REFRESH_MIN_S) === null)
    add("refresh", `must be ${REFRESH_EXPECTED}`);
  if (amounts !== undefined && !(WALL_AMOUNTS as readonly string[]).includes(amounts))
    add("amounts", `must be ${WALL_AMOUNTS_EXPECTED}`);
  if (of !== undefined && !(LEADERBOARD_KINDS as readonly string[]).includes(of))
    add("of", `must be ${LEADERBOARD_OF_EXPECTED}`);
  if (donateUrl !== undefined && !webUrl(donateUrl)) add("donate-url", `must be ${WEB_URL_EXPECTED}`);
}

/**
 * The theme's problems: a value that is not what its property takes, and (WCAG 2.2 AA) text
 * under 4.5:1 against the page, a focus ring or border under 3:1, a font under 16 px.
 */
export function checkTheme(theme: FormTheme): DesignProblem[] {
  const problems: DesignProblem[] = [];
  const add = (key: string, message: string) => problems.push({ field: `theme.${key}`, message });
  const colours: Record<"accent" | "text" | "background", [number, number, number]> = {
    accent: parseColour(THEME_DEFAULTS.accent)!,
    text: parseColour(THEME_DEFAULTS.text)!,
    background: parseColour(THEME_DEFAULTS.background)!,
  };
  for (const key of ["accent", "text", "background"] as const) {
    const value = theme[key];
    if (value === undefined) continue;
    const colour = parseColour(value);
    if (colour) colours[key] = colour;
    else add(key, `"${value.slice(0, 40)}" is not a colour (#1f6feb, #fff or rgb(31, 111, 235))`);
  }
  if (problems.length === 0) {
    const white: [number, number, number] = [255, 255, 255];
    const need = (key: string, ratio: number, min: number, what: string) => {
      if (ratio < min)
        add(key, `${what}: contrast ${ratioText(ratio)}, at least ${min}:1 is needed (WCAG 2.2 AA)`);
    };
    need(
      "text",
      contrastRatio(colours.text, colours.background),
      TEXT_CONTRAST_MIN,
      "text on the page's background",
    );
    need(
      "accent",
      contrastRatio(colours.accent, white),
      TEXT_CONTRAST_MIN,
      "the button's white text on the accent",
    );
    need(
      "accent",
      contrastRatio(colours.accent, colours.background),
      UI_CONTRAST_MIN,
      "the focus ring and borders on the page's background",
    );
  }
  if (theme.size !== undefined) {
    const px = fontSizePx(theme.size);
    if (px === null) add("size", "must be a size in px or rem, such as 18px or 1.125rem");
    else if (px < FONT_SIZE_MIN_PX)
      add("size", `${px}px is under ${FONT_SIZE_MIN_PX}px, too small on a phone`);
  }
  if (theme.font !== undefined && !FONT_LIST.test(theme.font))
    add("font", "must be a list of font names, such as Georgia, serif");
  if (theme.radius !== undefined && !RADIUS.test(theme.radius)) add("radius", "must be a length such as 8px");
  for (const key of Object.keys(theme))
    if (key !== "background" && !(key in THEME_PROPERTIES)) add(key, "is not a theme property");
  return problems;
}

/** What a design's element is written with: the attributes, then its theme's custom properties. */
export function servedForm(name: string, version: number, design: FormDesign): ServedForm {
  const { background: _background, ...theme } = design.theme;
  return { name, version, attributes: design.attributes, theme };
}
