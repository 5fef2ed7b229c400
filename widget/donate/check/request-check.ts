/**
 * The donation request against contract/api.ts's DonationRequestSchema, before anything leaves
 * the browser: the same rules, taken from contract/ (its patterns, limits and functions) and
 * applied field by field with widget/shared/checks.ts rather than by zod's parsers, which would
 * add 6.6 KB to what a donation loads. request-check.test.ts holds it to the schema: over
 * thousands of requests such as the form builds, it refuses exactly the paths the schema refuses.
 */
import type { DonationRequest } from "../../../contract/api";
import { LOCALES } from "../../../contract/locales";
import { isPositiveAmount } from "../../../contract/money";
import {
  CITY_MAX,
  CONSENT_TEXT_MAX,
  CONSENT_TEXT_MIN,
  FULL_NAME_MAX,
  KEYWORD_PATTERN,
  MEMO_MAX,
  NAME_MAX,
  PEER_ID_PATTERN,
  POSTAL_CODE_MAX,
  RECURRING_FREQUENCIES,
  SHORTCODE_PATTERN,
  STREET_MAX,
  TARGET_TEXT_MAX,
} from "../../../contract/patterns";
import { COUNTRY_PATTERN, hasTarget, isEmail, ZIP_PATTERN } from "../../../contract/request-patterns";
import {
  isBoolean,
  isObject,
  oneOf,
  optional,
  pattern,
  textUpTo,
  textWithin,
  type Check,
  type Fields,
  type Shape,
} from "../../shared/checks";

/** A donation request as the form builds it: everything but the card's token. */
export type UncheckedRequest = Omit<DonationRequest, "credit_card_token">;

const REQUEST: Shape = {
  shortcode: optional(pattern(SHORTCODE_PATTERN)),
  keyword: optional(pattern(KEYWORD_PATTERN)),
  event_id: optional(textUpTo(TARGET_TEXT_MAX)),
  event_type: optional(textUpTo(TARGET_TEXT_MAX)),
  form_id: optional(textUpTo(TARGET_TEXT_MAX)),
  // `source` is not checked again: the element's attribute was read by the schema's own rule
  // (attributes.ts, held to it by attributes.test.ts), and the form sends nothing else there.
  amount: isPositiveAmount,
  cover_fee: optional(isBoolean),
  recurring_frequency: optional(oneOf(RECURRING_FREQUENCIES)),
  anonymous: optional(isBoolean),
  memo: optional(textUpTo(MEMO_MAX)),
  dedication: optional(isObject),
  sms_opt_in_accepted: optional(isBoolean),
  sms_consent_text: optional(textWithin(CONSENT_TEXT_MIN, CONSENT_TEXT_MAX)),
  sms_consent_locale: optional(oneOf(LOCALES)),
  pledge_wall: optional(isBoolean),
  peer_fundraiser_id: optional(pattern(PEER_ID_PATTERN)),
  peer_fundraiser_team_id: optional(pattern(PEER_ID_PATTERN)),
  donor: isObject,
};

/**
 * The rules that come with the extras a form turned on (model/later.ts): the phone's
 * (extras/phone-rule.ts) and a dedication's (extras/dedication.tsx). A form without them sends
 * no phone and no dedication; the proxy would judge one.
 */
export interface ExtraRules {
  /** contract/phone.ts's rule: a US or Canadian mobile number's ten digits, or null. */
  normalizeMobile?: (text: string) => string | null;
  /** A dedication's fields, as the schema takes them, given the e-mail's check. */
  dedicationShape?: (isEmail: Check) => Shape;
  /** Whether the message and the dedication's line fit the memo (contract/dedication.ts). */
  memoFits?: (memo: string | undefined, dedication: UncheckedRequest["dedication"]) => boolean;
}

const donorShape = ({ normalizeMobile }: ExtraRules): Shape => ({
  full_name: optional(textWithin(1, FULL_NAME_MAX, true)),
  first_name: optional(textWithin(1, NAME_MAX, true)),
  last_name: optional(textWithin(1, NAME_MAX, true)),
  email: isEmail,
  phone: optional(
    (value) => value === "" || (typeof value === "string" && normalizeMobile?.(value) !== null),
  ),
  street_address: optional(textUpTo(STREET_MAX)),
  city: optional(textUpTo(CITY_MAX)),
  state: optional(textUpTo(CITY_MAX)),
  zip: optional(pattern(ZIP_PATTERN)),
  postal_code: optional(textUpTo(POSTAL_CODE_MAX)),
  country: optional(pattern(COUNTRY_PATTERN)),
});

/**
 * The path of every field the schema refuses ("donor.email", …); none when it takes the request.
 *
 * @example
 * refusedPaths({ ...request, donor: { ...request.donor, email: "ana@" } }); // ["donor.email"]
 */
export function refusedPaths(request: UncheckedRequest, extras: ExtraRules = {}): string[] {
  const refused = new Set<string>();
  const check = (value: unknown, shape: Shape, prefix: string) => {
    if (!isObject(value)) return;
    for (const key in shape) if (!shape[key]!(value[key])) refused.add(prefix + key);
  };
  check(request, REQUEST, "");
  check(request.donor, donorShape(extras), "donor.");
  if (extras.dedicationShape) check(request.dedication, extras.dedicationShape(isEmail), "dedication.");
  // The schema's checks across fields, on the values as it reads them (names trimmed).
  const donor: Fields = request.donor;
  const name = (field: string) => {
    const value = donor[field];
    return typeof value === "string" ? value.trim() : value;
  };
  if (!(donor.full_name !== undefined || (name("first_name") && name("last_name")))) {
    refused.add("donor.first_name");
  }
  if (!hasTarget(request)) refused.add("keyword");
  if (request.sms_opt_in_accepted === true && request.sms_consent_text === undefined) {
    refused.add("sms_consent_text");
  }
  if (request.sms_opt_in_accepted === true && !donor.phone) refused.add("donor.phone");
  if (extras.memoFits?.(request.memo, request.dedication) === false) refused.add("dedication.name");
  return [...refused];
}
