/**
 * Money in integer cents: amounts travel as decimal strings (money-schemas.ts checks them),
 * and every sum, fee and comparison is made in cents. No zod here: the widget's forms count
 * cents before zod loads.
 */
import { isAmount } from "./patterns";

/** "25.5" → 2550. The string must already match AmountSchema. */
export function toCents(amount: string): number {
  const [whole = "0", fraction = ""] = amount.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** A positive amount ("0.01" and up): the only kind anyone may give (PositiveAmountSchema's rule). */
export const isPositiveAmount = (value: unknown): value is string => isAmount(value) && toCents(value) > 0;

/** 2550 → "25.50". */
export function fromCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return `${whole}.${String(rest).padStart(2, "0")}`;
}

/** A rate string in millionths: "0.029" → 29000, so fee arithmetic stays in integers. */
export function rateToMicros(rate: string | number): number {
  const text = typeof rate === "number" ? rate.toFixed(6) : rate;
  const [whole = "0", fraction = ""] = text.split(".");
  return Number(whole) * 1_000_000 + Number(fraction.slice(0, 6).padEnd(6, "0"));
}

/** The processing fee on an amount, rounded half up to the cent: feeCents(2500, "0.042") === 105. */
export function feeCents(amountCents: number, rate: string | number): number {
  return Math.floor((amountCents * rateToMicros(rate) + 500_000) / 1_000_000);
}
