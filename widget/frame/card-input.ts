import { cardBrand, cvvLength, isExpired, luhnValid, parseExpiry, type CardBrand } from "../../contract/card";

/** Card numbers are 12 to 19 digits; American Express uses 15, most others 16. */
const MAX_DIGITS = 19;

/** How many digits a brand's numbers have, for knowing when the donor has finished typing. */
export function expectedDigits(brand: CardBrand): number {
  return brand === "amex" ? 15 : 16;
}

export function maxDigits(brand: CardBrand): number {
  return brand === "amex" ? 15 : brand === "mastercard" ? 16 : MAX_DIGITS;
}

/** "4242424242424242" → "4242 4242 4242 4242"; American Express as 4-6-5. */
export function formatCardNumber(digits: string, brand: CardBrand): string {
  const groups = brand === "amex" ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(" ");
}

/** Where the caret goes in `formatted` so that `digitsBefore` digits stay to its left. */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i]!)) seen++;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

/** Shapes the expiry as typed: "4" → "04/", "0427" → "04/27", "042027" → "04/2027". */
export function formatExpiryInput(input: string, deleting: boolean): string {
  let digits = input.replace(/\D/g, "").slice(0, 6);
  if (digits.length === 1 && digits > "1") digits = `0${digits}`;
  // "1/" means January: the donor typed the separator after one digit.
  if (digits.length === 1 && /^\d\s*\//.test(input)) digits = `0${digits}`;
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** "4/30" or "04/2030" → "04/2030", the form the proxy takes; null when it is not a date. */
export function normalizeExpiry(input: string): string | null {
  const expiry = parseExpiry(input);
  return expiry ? `${String(expiry.month).padStart(2, "0")}/${expiry.year}` : null;
}

export type CardFieldName = "number" | "expiry" | "cvv";
export type CardProblem = "numberInvalid" | "expiryInvalid" | "expired" | "cvvInvalid";

export interface CardValues {
  number: string;
  expiry: string;
  cvv: string;
}

/** The problem with each field, judged as the contract judges a card (contract/card.ts). */
export function cardProblems(
  values: CardValues,
  now = new Date(),
): Partial<Record<CardFieldName, CardProblem>> {
  const digits = values.number.replace(/\D/g, "");
  const brand = cardBrand(digits);
  const problems: Partial<Record<CardFieldName, CardProblem>> = {};
  if (!luhnValid(digits)) problems.number = "numberInvalid";
  const expiry = /^\d{1,2}\s*\/\s*(\d{2}|\d{4})$/.test(values.expiry.trim())
    ? parseExpiry(values.expiry)
    : null;
  if (!expiry) problems.expiry = "expiryInvalid";
  else if (isExpired(expiry, now)) problems.expiry = "expired";
  if (values.cvv.length !== cvvLength(brand)) problems.cvv = "cvvInvalid";
  return problems;
}

/** Whether a field looks finished, so its check can run before the donor leaves it. */
export function looksFinished(field: CardFieldName, values: CardValues): boolean {
  const digits = values.number.replace(/\D/g, "");
  if (field === "number") return digits.length >= expectedDigits(cardBrand(digits));
  // "04/20" may be the start of "04/2030": a two-digit year is judged when the donor leaves.
  if (field === "expiry") return /^\d{2}\/\d{4}$/.test(values.expiry);
  return values.cvv.length >= cvvLength(cardBrand(digits));
}
