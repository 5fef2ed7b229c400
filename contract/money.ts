import * as z from "zod/mini";
import { AMOUNT_PATTERN, RATE_PATTERN } from "./patterns";

// `/* @__PURE__ */`: building a schema has no side effect, so a bundle may drop an unused one.

/** A money amount as it travels: a decimal string with at most two decimals. */
export const AmountSchema = /* @__PURE__ */ z
  .string()
  .check(z.regex(AMOUNT_PATTERN, 'Enter an amount such as "25" or "25.50".'));

/** A positive amount: the only kind anyone may give. */
export const PositiveAmountSchema = /* @__PURE__ */ AmountSchema.check(
  z.refine((value) => toCents(value) > 0, "The amount must be greater than 0."),
);

/** A fee rate as a decimal string, "0.03" meaning 3 %. */
export const RateSchema = /* @__PURE__ */ z
  .string()
  .check(z.regex(RATE_PATTERN, 'Enter a rate such as "0.03".'));

/** "25.5" → 2550. The string must already match AmountSchema. */
export function toCents(amount: string): number {
  const [whole = "0", fraction = ""] = amount.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

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
