/**
 * The money schemas (zod), built on patterns.ts's patterns and money.ts's arithmetic. Apart from
 * money.ts so that a bundle which only counts cents (the widget's forms) carries no zod.
 */
import * as z from "zod/mini";
import { isPositiveAmount } from "./money";
import { AMOUNT_PATTERN, RATE_PATTERN } from "./patterns";

// `/* @__PURE__ */`: building a schema has no side effect, so a bundle may drop an unused one.

/** A money amount as it travels: a decimal string with at most two decimals. */
export const AmountSchema = /* @__PURE__ */ z
  .string()
  .check(z.regex(AMOUNT_PATTERN, 'Enter an amount such as "25" or "25.50".'));

/** A positive amount: the only kind anyone may give. */
export const PositiveAmountSchema = /* @__PURE__ */ AmountSchema.check(
  z.refine(isPositiveAmount, "The amount must be greater than 0."),
);

/** A fee rate as a decimal string, "0.03" meaning 3 %. */
export const RateSchema = /* @__PURE__ */ z
  .string()
  .check(z.regex(RATE_PATTERN, 'Enter a rate such as "0.03".'));
