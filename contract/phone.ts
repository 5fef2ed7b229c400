/**
 * The phone rule: US and Canadian mobile numbers (+1, the North American Numbering Plan) only.
 * Written out here rather than taken from libphonenumber-js, so that the widget and the proxy
 * run the very same rule at a tenth of the library's size. libphonenumber-js is its reference:
 * contract/phone.test.ts compares the two over thousands of generated inputs, the table of
 * area codes below included.
 */

const NANP = "1";
const NATIONAL_LENGTH = 10;
const AREA_CODE_LENGTH = 3;
/** The international call prefix dialled from the US ("011 44 …"). */
const US_IDD = "011";
/** Los Angeles' 310 has seven-digit local numbers, which US formatting writes as 310-1234. */
const LOCAL_310 = "310";
/** Characters people put between the digits of a phone number. */
const PUNCTUATION = /^[\d\s().\-/]*$/;
/** A US national number as the reference reads one: ten digits, or seven starting with 3. */
const US_NATIONAL = /^(?:[2-9]\d{9}|3\d{6})$/;
/** Ten digits with an area code that is one (NANP area codes never start with 0 or 1). */
const TEN_DIGITS = /^[2-9]\d{9}$/;

/**
 * The leading digits (area codes) of the +1 countries other than the US and Canada: Antigua's
 * 268 … the US Virgin Islands' 340. Their numbers are refused. The 555 area code, used for
 * examples and tests, is of none of them and is accepted.
 */
export const OTHER_NANP_AREA_CODES: Readonly<Record<string, string>> = {
  AG: "268",
  AI: "264",
  AS: "684",
  BB: "246",
  BM: "441",
  BS: "242",
  DM: "767",
  DO: "8001|8[024]9",
  GD: "473",
  GU: "671",
  JM: "658|876",
  KN: "869",
  KY: "345",
  LC: "758",
  MP: "670",
  MS: "664",
  PR: "787|939",
  SX: "721",
  TC: "649",
  TT: "868",
  VC: "784",
  VG: "284",
  VI: "340",
};
/** A pattern for numbers starting with one of `codes`' leading digits. */
const startingWith = (codes: Readonly<Record<string, string>>) =>
  new RegExp(`^(?:${Object.values(codes).join("|")})`);
const OTHER_NANP = /* @__PURE__ */ startingWith(OTHER_NANP_AREA_CODES);

/** Drops the national prefix "1" when what follows is long enough to be a whole number. */
function withoutNationalPrefix(number: string): string {
  return number.startsWith(NANP) && number.length > NATIONAL_LENGTH ? number.slice(1) : number;
}

/**
 * The national part of a +1 number, read as the reference reads it: "+1 (555) 010-1234",
 * "15550101234", "011 1 555 010 1234" → "5550101234". Null for other calling codes and for
 * text that is not a number.
 */
function nationalNumber(text: string): string | null {
  const trimmed = text.trim();
  const plus = trimmed.startsWith("+");
  const body = plus ? trimmed.slice(1) : trimmed;
  if (!PUNCTUATION.test(body)) return null;
  let digits = body.replace(/\D/g, "");
  let international = plus;
  if (!plus && digits.startsWith(US_IDD) && digits.length > US_IDD.length) {
    digits = digits.slice(US_IDD.length);
    international = true;
  }
  if (international) {
    if (!digits.startsWith(NANP)) return null;
    const national = withoutNationalPrefix(digits.slice(NANP.length));
    return national.length < 2 ? null : national;
  }
  if (digits.length < 2) return null;
  let number = digits;
  // "1 555 …" written without the plus: the 1 is the calling code when the rest is a number.
  if (digits.startsWith(NANP)) {
    const shorter = digits.slice(NANP.length);
    if (
      (!US_NATIONAL.test(digits) && US_NATIONAL.test(withoutNationalPrefix(shorter))) ||
      digits.length > NATIONAL_LENGTH
    ) {
      number = shorter;
    }
  }
  return withoutNationalPrefix(number);
}

/**
 * A US or Canadian mobile number as the upstream takes it: ten digits, area code first.
 * Accepts what people paste: "+1 (555) 010-1234", "15550101234", "555.010.1234".
 * Returns null for anything else (9 or 12 digits, other countries, letters).
 *
 * @example
 * normalizeMobile("+1 (555) 010-1234"); // "5550101234"
 * normalizeMobile("+1 876 555 0123");   // null: Jamaica
 */
export function normalizeMobile(input: string): string | null {
  if (input.length > 32 || /[a-z]/i.test(input)) return null;
  const national = nationalNumber(input);
  return national !== null && TEN_DIGITS.test(national) && !OTHER_NANP.test(national) ? national : null;
}

/** Ten digits → "(555) 010-1234", for showing a number back to the person who typed it. */
export function formatMobile(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

function formatNational(digits: string): string {
  if (digits.length < AREA_CODE_LENGTH) return digits;
  if (digits.startsWith(LOCAL_310) && digits.length <= 7) {
    return digits.length === AREA_CODE_LENGTH ? digits : `${LOCAL_310}-${digits.slice(AREA_CODE_LENGTH)}`;
  }
  const exchange = digits.slice(3, 6);
  const line = digits.slice(6);
  return `(${digits.slice(0, 3)})${exchange ? ` ${exchange}` : ""}${line ? `-${line}` : ""}`;
}

/** A national number in international style: "555 010 1234", or "310 1234" for a local one. */
function groupInternational(national: string): string {
  if (national.startsWith(LOCAL_310) && national.length === 7) return `${LOCAL_310} ${national.slice(3)}`;
  return [national.slice(0, 3), national.slice(3, 6), national.slice(6)].filter(Boolean).join(" ");
}

/** Digits after a + (or 011): "15550101234" → "1 555 010 1234". */
function formatInternational(digits: string): string {
  if (!digits.startsWith(NANP)) return digits;
  const national = digits.slice(NANP.length);
  if (national === "") return NANP;
  const afterPrefix = national.slice(1);
  if (national.startsWith(NANP) && /^[2-9]/.test(afterPrefix) && afterPrefix.length <= NATIONAL_LENGTH) {
    return `${NANP} ${NANP} ${groupInternational(afterPrefix)}`;
  }
  if (/^[01]/.test(national) || national.length > NATIONAL_LENGTH) return `${NANP} ${national}`;
  return `${NANP} ${groupInternational(national)}`;
}

/**
 * A US number formatted as it is typed, as the reference's AsYouType("US") formats it.
 *
 * @example
 * formatMobileAsTyped("5550101");  // "(555) 010-1"
 * formatMobileAsTyped("+15550");   // "+1 555 0"
 */
export function formatMobileAsTyped(text: string): string {
  const plus = text.trimStart().startsWith("+");
  const digits = text.replace(/\D/g, "");
  if (plus) return digits === "" ? "+" : `+${formatInternational(digits)}`;
  if (digits.startsWith(US_IDD + NANP)) return `${US_IDD} ${formatInternational(digits.slice(3))}`;
  if (digits.startsWith(NANP)) {
    const national = digits.slice(1);
    if (national === "") return NANP;
    // Too long for a national number: read as the calling code followed by a number.
    if (national.length > NATIONAL_LENGTH) return formatInternational(digits);
    return /^[01]/.test(national) ? digits : `${NANP} ${formatNational(national)}`;
  }
  if (digits.startsWith("0") || digits.length > NATIONAL_LENGTH) return digits;
  return formatNational(digits);
}
