/** Card checks and the test cards (as Stripe's): which number gives which outcome. */
import { cardBrand, cardDigits, cvvLength, isExpired, luhnValid } from "../contract/card";
import { UPSTREAM_EXPIRY_PATTERN } from "../contract/upstream";
import { ApiError } from "./http";
import type { CardOutcome } from "./ledger";

/** Numbers with a fixed outcome; any other Luhn-valid number succeeds, but for DECLINED_ENDING. */
export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  "4242424242424242": "success",
  "4000000000000002": "declined",
  "4000000000000119": "fatal",
};

/** Any Luhn-valid number ending so is declined: as many distinct declining cards as a card-testing bot needs. */
export const DECLINED_ENDING = "0002";

export interface CheckedCard {
  brand: string;
  last4: string;
  outcome: CardOutcome;
}

/**
 * Checks a card (Luhn, MM/YYYY expiry not in the past, CVV length for the brand) and returns
 * only what may be kept: brand, last 4 and the test outcome. Throws a 400 naming each bad field.
 *
 * @example
 * checkCard({ card_number: "4242424242424242", cvv: "123", expiration_date: "12/2030" }, new Date())
 * // → { brand: "visa", last4: "4242", outcome: "success" }
 */
export function checkCard(
  card: { card_number: string; cvv: string; expiration_date: string },
  now: Date,
): CheckedCard {
  const fields: Record<string, string[]> = {};
  const digits = cardDigits(card.card_number);
  const numberOk = luhnValid(digits);
  if (!numberOk)
    fields.card_number = ["The card number is not valid (12 to 19 digits passing the Luhn check)."];
  const brand = numberOk ? cardBrand(digits) : "unknown";

  const expiry = UPSTREAM_EXPIRY_PATTERN.exec(card.expiration_date);
  if (!expiry) {
    fields.expiration_date = ["The expiration date must be MM/YYYY."];
  } else if (isExpired({ month: Number(expiry[1]), year: Number(expiry[2]) }, now)) {
    fields.expiration_date = ["The card has expired."];
  }

  if (!/^\d+$/.test(card.cvv)) {
    fields.cvv = ["The CVV must be digits."];
  } else if (numberOk && card.cvv.length !== cvvLength(brand)) {
    fields.cvv = [`The CVV of a ${brand} card is ${cvvLength(brand)} digits.`];
  }

  const problems = Object.entries(fields).map(([name, messages]) => `${name}: ${messages.join(" ")}`);
  if (problems.length > 0) throw new ApiError(400, "invalid_card", problems.join("; "), fields);
  const outcome = TEST_CARDS[digits] ?? (digits.endsWith(DECLINED_ENDING) ? "declined" : "success");
  return { brand, last4: digits.slice(-4), outcome };
}
