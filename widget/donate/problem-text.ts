import type { Campaign } from "../../contract/api";
import { toCents } from "../../contract/money";
import type { Locale, Messages } from "../i18n";
import { formatMoney } from "../shared/format";
import { DEDICATION_NAME_MAX } from "../../contract/dedication";
import { MEMO_MAX, type DonateField, type FieldProblem } from "./DonationModel";

/** A field's problem in the donor's words. */
export function problemText(
  t: Messages,
  field: DonateField,
  problem: FieldProblem,
  campaign: Campaign | null,
  locale: Locale,
  usesZip: boolean,
): string {
  const e = t.donate.errors;
  if (problem === "missing") return e.required;
  switch (field) {
    case "amount":
      if (problem === "range" && campaign) {
        const money = (amount: string) => formatMoney(toCents(amount), campaign.currency, locale);
        return e.amountRange(money(campaign.min_amount), money(campaign.max_amount));
      }
      return e.amount;
    case "phone":
      return problem === "smsPhone" ? e.smsPhone : e.phone;
    case "zip":
      return usesZip ? e.zip : e.postalCode;
    case "memo":
      return e.memo(MEMO_MAX);
    case "dedicationName":
      return problem === "tooLong"
        ? e.dedicationTooLong
        : problem === "invalid"
          ? e.dedicationNameInvalid(DEDICATION_NAME_MAX)
          : e.dedicationName;
    case "dedicationEmail":
      return e.email;
    case "firstName":
    case "lastName":
      return t.common[`${field}Required`];
    case "email":
    case "country":
    case "street":
    case "city":
    case "state":
    case "peer":
    case "card":
      return e[field];
    default:
      return e.field;
  }
}
