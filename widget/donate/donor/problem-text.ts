import type { Messages } from "../../i18n";
import type { DonateField, FieldProblem } from "../base/fields";

/** A problem of the donor's fields, in the donor's words. */
export function donorProblemText(
  t: Messages,
  field: DonateField,
  problem: FieldProblem,
  usesZip: boolean,
): string {
  const e = t.donateLater.errors;
  if (problem === "missing") return t.donate.errors.required;
  switch (field) {
    case "phone":
      return problem === "smsPhone" ? e.smsPhone : e.phone;
    case "zip":
      return usesZip ? e.zip : e.postalCode;
    case "firstName":
    case "lastName":
      return t.common[`${field}Required`];
    case "email":
    case "country":
    case "street":
    case "city":
    case "state":
      return e[field];
    default:
      return t.donate.errors.field;
  }
}
