/**
 * The part of libphonenumber-js/min that givekit uses, for +1 numbers only, at a tenth of
 * its size: the widget bundles use this module in its place (vite.config.ts). Its answers
 * for North American numbers are the library's own: test/widget/phone-lite.test.ts holds
 * the two side by side over thousands of generated inputs.
 */
import metadata from "libphonenumber-js/metadata.min.json";

const NANP = "1";
const NATIONAL_LENGTH = 10;
const AREA_CODE_LENGTH = 3;
/** The international call prefix dialled from the US ("011 44 …"). */
const US_IDD = "011";
/** Los Angeles' 310 has seven-digit local numbers, which the US metadata formats as 310-1234. */
const LOCAL_310 = "310";
/** The country list entry of the leading digits (area codes) of a NANP country's numbers. */
const LEADING_DIGITS = 10;
/** Characters people put between the digits of a phone number. */
const PUNCTUATION = /^[\d\s().\-/]*$/;

interface MinMetadata {
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, unknown[]>;
}

// The NANP countries other than the US and Canada, known by their area codes.
const OTHER_NANP: [string, RegExp][] = (metadata as unknown as MinMetadata).country_calling_codes[
  NANP
]!.filter((country) => country !== "US" && country !== "CA").map((country) => {
  const leading = (metadata as unknown as MinMetadata).countries[country]![LEADING_DIGITS];
  return [country, new RegExp(`^(?:${String(leading)})`)];
});

export interface LitePhoneNumber {
  countryCallingCode: string;
  nationalNumber: string;
  country: string | undefined;
  isPossible(): boolean;
}

/** The US national number pattern: ten digits, or seven starting with 3 (the 310 area). */
const US_NATIONAL = /^(?:[2-9]\d{9}|3\d{6})$/;

/** Drops the national prefix "1" when what follows is long enough to be a whole number. */
function withoutNationalPrefix(number: string): string {
  return number.startsWith(NANP) && number.length > NATIONAL_LENGTH ? number.slice(1) : number;
}

function numberOf(nationalNumber: string, country: string | undefined): LitePhoneNumber {
  return {
    countryCallingCode: NANP,
    nationalNumber,
    country: OTHER_NANP.find(([, area]) => area.test(nationalNumber))?.[0] ?? country,
    isPossible: () => nationalNumber.length === NATIONAL_LENGTH,
  };
}

/**
 * Reads a +1 number the way libphonenumber-js does: "+1 (555) 010-1234", "15550101234",
 * "011 1 555 010 1234". Numbers of other calling codes, and text that is not a number, give
 * undefined.
 */
export function parsePhoneNumberFromString(
  text: string,
  defaultCountry?: string,
): LitePhoneNumber | undefined {
  const trimmed = text.trim();
  const plus = trimmed.startsWith("+");
  const body = plus ? trimmed.slice(1) : trimmed;
  if (!PUNCTUATION.test(body)) return undefined;
  let digits = body.replace(/\D/g, "");
  let international = plus;
  if (!plus && digits.startsWith(US_IDD) && digits.length > US_IDD.length) {
    digits = digits.slice(US_IDD.length);
    international = true;
  }
  if (international) {
    if (!digits.startsWith(NANP)) return undefined;
    const national = withoutNationalPrefix(digits.slice(NANP.length));
    return national.length < 2 ? undefined : numberOf(national, undefined);
  }
  if (digits.length < 2) return undefined;
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
  return numberOf(withoutNationalPrefix(number), defaultCountry);
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

/** Formats a US number as it is typed: "5550101" → "(555) 010-1", "+15550" → "+1 555 0". */
export class AsYouType {
  /** Only "US" is known: +1 numbers are all this module reads. */
  constructor(readonly defaultCountry = "US") {}

  input(text: string): string {
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
}
