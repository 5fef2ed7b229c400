import { parsePhoneNumberFromString } from "libphonenumber-js/min";

const SERVED_COUNTRIES = new Set(["US", "CA"]);

/**
 * A US or Canadian mobile number as the upstream takes it: ten digits, area code first.
 * Accepts what people paste: "+1 (555) 010-1234", "15550101234", "555.010.1234".
 * Returns null for anything else (9 or 12 digits, other countries, letters).
 */
export function normalizeMobile(input: string): string | null {
  if (input.length > 32 || /[a-z]/i.test(input)) return null;
  const phone = parsePhoneNumberFromString(input, "US");
  if (!phone || phone.countryCallingCode !== "1" || !phone.isPossible()) return null;
  // Numbers of other NANP countries (Jamaica, Bahamas…) resolve to them and are refused;
  // the 555 area code, used for examples and tests, resolves to none and is accepted.
  if (phone.country && !SERVED_COUNTRIES.has(phone.country)) return null;
  const digits = phone.nationalNumber;
  // NANP area codes never start with 0 or 1.
  return /^[2-9]\d{9}$/.test(digits) ? digits : null;
}

/** Ten digits → "(555) 010-1234", for showing a number back to the person who typed it. */
export function formatMobile(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
