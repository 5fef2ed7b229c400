/** Test card numbers, completed by contract/card.ts's Luhn rule (no Vitest here: the bench uses it too). */
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
