/**
 * Test card numbers, completed by contract/card.ts's Luhn rule, and expiries that stay in the future
 * whatever the day the suite runs (no Vitest here: the bench uses it too).
 */
import { luhnValid } from "../../contract/card";

/**
 * A Luhn-valid card number: `before`, the one check digit that makes it valid, then `after`
 * (contract/card.ts's rule decides).
 *
 * @example
 * withCheckDigit("424242424242424"); // "4242424242424242"
 */
export function withCheckDigit(before: string, after = ""): string {
  for (let digit = 0; digit <= 9; digit++) {
    const number = `${before}${digit}${after}`;
    if (luhnValid(number)) return number;
  }
  throw new Error("unreachable: one digit always completes the check");
}

/**
 * December of the year `years` after `now`'s, as the upstream takes an expiry (MM/YYYY). The
 * servers under test judge a card by today's date, so a test card's expiry is made from it too.
 *
 * @example
 * expiryAhead(5, new Date("2026-12-06")); // "12/2031"
 */
export function expiryAhead(years = 5, now = new Date()): string {
  return `12/${now.getUTCFullYear() + years}`;
}

/** The expiry the test cards carry: five years ahead, in December. */
export const FUTURE_EXPIRY = expiryAhead();

/** The same expiry as a donor types it into the card frame: MM/YY. */
export const FUTURE_EXPIRY_TYPED = FUTURE_EXPIRY.replace("/20", "/");
