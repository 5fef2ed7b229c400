import { DEDICATION_NAME_MAX, MEMO_MAX } from "../../../contract/patterns";
import type { Messages } from "../../i18n";
import type { DonateField, FieldProblem } from "../base/fields";

/** A problem of the options' fields (the message, a dedication), in the donor's words. */
export function optionsProblemText(t: Messages, field: DonateField, problem: FieldProblem): string {
  const e = t.donateLater.errors;
  if (problem === "missing") return t.donate.errors.required;
  switch (field) {
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
    default:
      return t.donate.errors.field;
  }
}
