import { MEMO_MAX } from "../../../contract/patterns";
import type { Messages } from "../../i18n";
import type { DonateField, FieldProblem } from "../base/fields";

/**
 * A problem of the options' fields in the donor's words: the message (one the nonprofit made
 * required, left empty, as the gift's step words it). A dedication's fields word their own
 * (options/dedication.tsx).
 */
export const optionsProblemText = (t: Messages, field: DonateField, problem: FieldProblem): string =>
  problem === "missing"
    ? t.donate.errors.required
    : field === "memo"
      ? t.donateLater.errors.memo(MEMO_MAX)
      : t.donate.errors.field;
