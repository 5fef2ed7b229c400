import type { Campaign } from "../../../contract/api";
import { toCents } from "../../../contract/money";
import type { Locale, Messages } from "../../i18n";
import { formatMoney } from "../../shared/format";
import type { DonateField, FieldProblem } from "../base/fields";

/**
 * A problem of the gift's step (the amount, the fundraiser), or a field left empty, in the
 * donor's words; null for the later steps' fields, which their parts word (donor/problem-text.ts,
 * options/problem-text.ts, card/CardField.tsx).
 */
export function giftProblemText(
  t: Messages,
  field: DonateField,
  problem: FieldProblem,
  campaign: Campaign | null,
  locale: Locale,
): string | null {
  const e = t.donate.errors;
  if (problem === "missing") return e.required;
  if (field === "peer") return e.peer;
  if (field !== "amount") return null;
  if (problem === "range" && campaign) {
    const money = (amount: string) => formatMoney(toCents(amount), campaign.currency, locale);
    return e.amountRange(money(campaign.min_amount), money(campaign.max_amount));
  }
  return e.amount;
}
