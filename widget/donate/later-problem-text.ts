import { DEDICATION_NAME_MAX } from "../../contract/patterns";
import type { Messages } from "../i18n";
import { MEMO_MAX } from "../../contract/patterns";
import type { DonateField, FieldProblem } from "./base/fields";

/** A problem of a field after the gift's step (problem-text.ts words the gift's), in the donor's words. */
export function laterProblemText(
  t: Messages,
  field: DonateField,
  problem: FieldProblem,
  usesZip: boolean,
): string {
  const e = t.donateLater.errors;
  switch (field) {
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
    case "card":
      return e[field];
    default:
      return t.donate.errors.field;
  }
}
