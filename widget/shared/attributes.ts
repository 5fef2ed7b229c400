/**
 * Element attributes, read by hand (as shared/checks.ts reads the proxy's answers) so that an
 * element can render before zod loads: each rule is held to the zod schema it stands for by a
 * property test (widget/readers.test.ts).
 */
import { textUpTo, webUrl } from "../../contract/element-rules";
import { isPositiveAmount } from "../../contract/money";
import {
  KEYWORD_EXPECTED,
  KEYWORD_PATTERN,
  SHORTCODE_EXPECTED,
  SHORTCODE_PATTERN,
} from "../../contract/patterns";
import { oneOf as isOneOf, pattern, type Check } from "./checks";
import { resolveProxyUrl } from "./proxy-url";
import { chooseLocale, type Locale } from "../i18n";

/** What an element's attributes parse into: its props, or the problem with one of them. */
export type AttributeResult<P> = { ok: true; props: P } | { ok: false; problem: string };

/**
 * An attribute's reader (the value it reads, undefined when the value breaks the rule) and,
 * for the `[givekit] …` message, what the attribute must hold.
 */
export type Rule = [read: (value: string) => string | undefined, expected: string];

/** A bad or missing attribute; readAttributes turns it into the element's problem. */
class Refused extends Error {}

/** Stops reading the attributes with a message naming the attribute. */
export function refuse(name: string, problem: string): never {
  throw new Refused(`the "${name}" attribute ${problem}.`);
}

/** The value as is when the check passes. */
const as = (check: Check, expected: string): Rule => [
  (value) => (check(value) ? value : undefined),
  expected,
];

/** A value the pattern matches (zod: `z.string().check(z.regex(pattern))`). */
export const matching = (regexp: RegExp, expected: string): Rule => as(pattern(regexp), expected);
/** Trimmed text of 1 to `max` characters (zod: `z.string().check(z.trim(), z.minLength(1), z.maxLength(max))`). */
export const text = (max: number, expected = `1 to ${max} characters`): Rule => [textUpTo(max), expected];
/** One of these values (zod: `z.enum(values)`). */
export const oneOf = (values: readonly string[], expected: string): Rule => as(isOneOf(values), expected);
/** A positive amount (contract/money-schemas.ts's PositiveAmountSchema). */
export const POSITIVE_AMOUNT = as(isPositiveAmount, 'amounts such as "50" or "50.00"');
export const SHORTCODE = matching(SHORTCODE_PATTERN, SHORTCODE_EXPECTED);
export const KEYWORD = matching(KEYWORD_PATTERN, KEYWORD_EXPECTED);

export interface AttributeReader {
  /** The attribute's value as its rule reads it (trimmed text stays trimmed); undefined when absent. */
  (name: string, rule: Rule): string | undefined;
  /** A comma-separated list ("25,50,100"), each trimmed part read by the rule. */
  list(name: string, fallback: string, rule: Rule, max?: number): string[];
  /** An absolute http(s) URL resolved against the page (javascript:, data: and the like are refused); empty is absent. */
  url(name: string): string | undefined;
  /** The proxy to talk to: the attribute, else where the script came from. */
  proxy(): string;
  /** The element's language (widget/i18n chooseLocale: `locale`, the page's, the browser's among `locales`). */
  locale(): Locale;
}

/** A value as its rule reads it, or the refusal naming the attribute. */
function parse(name: string, value: string, [read, expected]: Rule): string {
  return read(value) ?? refuse(name, `must be ${expected}`);
}

/**
 * Reads an element's attributes with `read`, which may refuse() one; the first bad or
 * missing attribute is named in the result's problem, for the page author to fix.
 *
 * @example
 * readAttributes(get, (attr) => ({ keyword: attr("keyword", KEYWORD) }));
 * // { ok: true, props: { keyword: "HOPE" } }, or { ok: false, problem: 'the "keyword" attribute must be …' }
 */
export function readAttributes<P>(
  get: (name: string) => string | null,
  read: (attr: AttributeReader) => P,
): AttributeResult<P> {
  const attr = ((name, rule) => {
    const value = get(name);
    return value === null ? undefined : parse(name, value, rule);
  }) as AttributeReader;
  attr.list = (name, fallback, rule, max = Infinity) => {
    const parts = (get(name) ?? fallback).split(",").map((part) => parse(name, part.trim(), rule));
    return parts.length > max ? refuse(name, `must list at most ${max}: ${rule[1]}`) : parts;
  };
  attr.url = (name) => {
    const value = get(name)?.trim();
    if (!value) return undefined;
    return webUrl(value, location.href)?.href ?? refuse(name, "must be an http or https URL");
  };
  attr.proxy = () => resolveProxyUrl(get("proxy")) ?? refuse("proxy", "must be an http or https URL");
  attr.locale = () => chooseLocale({ getAttribute: get });

  try {
    return { ok: true, props: read(attr) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.message };
    throw error;
  }
}
