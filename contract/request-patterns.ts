/**
 * The patterns of givekit's API that only a whole request's check reads in the widget (the
 * donor's e-mail, ZIP code and country, the card's last four, the campaign a request names):
 * patterns.ts's rules, in a module of their own because a bundler places a module whole, and the
 * donate form's first step reads patterns.ts. Here they come with the rest of the form
 * (widget/donate/later.ts), which checks them, not in the first step's chunk (0.15 KB of Brotli).
 */
import { EMAIL_LOCAL_MAX, EMAIL_MAX } from "./patterns";

/** An ISO 3166 country code such as US. */
export const COUNTRY_PATTERN = /^[A-Z]{2}$/;
/** A US ZIP code, with or without its four-digit extension. */
export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
/** The last four digits of a card. */
export const LAST4_PATTERN = /^\d{4}$/;

/**
 * An e-mail address as givekit takes one: a local part of dot-separated atoms (RFC 5322's
 * characters, ASCII only), then a domain of letter, digit and hyphen labels (none starting or
 * ending with a hyphen) under a top-level domain of letters.
 */
export const EMAIL_PATTERN =
  /^[\w!#$%&'*+/=?^`{|}~-]+(?:\.[\w!#$%&'*+/=?^`{|}~-]+)*@(?:[A-Za-z\d](?:[A-Za-z\d-]*[A-Za-z\d])?\.)+[A-Za-z]{2,}$/;

/**
 * Whether an e-mail address keeps to the standards' lengths: at most EMAIL_MAX characters, at
 * most EMAIL_LOCAL_MAX before the @. The pattern takes ASCII only, so characters are octets.
 */
export const emailFits = (address: string): boolean =>
  address.length <= EMAIL_MAX && address.lastIndexOf("@") <= EMAIL_LOCAL_MAX;

/** An e-mail address as givekit takes one: EMAIL_PATTERN's shape and emailFits' lengths. */
export const isEmail = (value: unknown): value is string =>
  typeof value === "string" && EMAIL_PATTERN.test(value) && emailFits(value);

/** Whether a request names its campaign: a shortcode and a keyword, or an event id and type. */
export function hasTarget(value: {
  shortcode?: string;
  keyword?: string;
  event_id?: string;
  event_type?: string;
}) {
  return Boolean((value.shortcode && value.keyword) || (value.event_id && value.event_type));
}
