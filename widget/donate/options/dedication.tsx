import { EMAIL_MAX } from "../../../contract/patterns";
/**
 * A gift dedicated to someone (`fields="dedication"`): its fields and their words, its model and
 * its part of the request's check. An extra: fetched beside later.ts only by a form that asks for a dedication.
 */
import { DEDICATION_KINDS, DEDICATION_NAME_MAX, DEDICATION_NAME_REFUSED } from "../../../contract/dedication";
import { Checkbox, Choices } from "../../shared/Field";
import { reactive } from "../../shared/reactive";
import type { Messages } from "../../i18n";
import type { TextField as LaterTextField } from "../../shared/TextField";
import type { FormEdits } from "../base/fields";
import type { DedicationModel } from "./dedication-model";
import { oneOf, optional, textWithin, type Check, type Shape } from "../../shared/checks";

export { createDedicationModel } from "./dedication-model";
/** The message and the dedication's line within the memo the service keeps: the request's check asks it too. */
export { memoFits } from "../../../contract/dedication";

interface DedicationFieldsProps {
  /** Made with later.ts, as the options were. */
  dedication: DedicationModel;
  form: FormEdits;
  t: Messages;
  /** later.ts's text field: this extra comes after it, so it carries no copy (nor a chunk they share). */
  TextField: typeof LaterTextField;
}

/** `fields="dedication"`: a box that, ticked, asks whom the gift honors or remembers, and whom to tell. */
export const DedicationFields = reactive(({ dedication, form, t, TextField }: DedicationFieldsProps) => {
  const d = t.donateLater;
  const e = d.errors;
  const { dedicationName: name, dedicationEmail: email } = form.errors.value;
  return (
    <>
      <Checkbox
        field="dedicate"
        label={d.dedicate}
        checked={dedication.on.value}
        onChange={(checked) => form.set(dedication.on, checked, "dedicationName")}
      />
      {dedication.on.value ? (
        <>
          <Choices
            field="dedicationKind"
            legend={d.dedicationKind}
            choices={DEDICATION_KINDS}
            labelOf={(kind) => d.dedicationKinds[kind]}
            chosen={dedication.kind.value}
            onChoose={(kind) => form.set(dedication.kind, kind)}
          />
          <TextField
            field="dedicationName"
            label={d.dedicationName}
            optional={null}
            value={dedication.name.value}
            error={
              name
                ? name === "tooLong"
                  ? e.dedicationTooLong
                  : name === "invalid"
                    ? e.dedicationNameInvalid(DEDICATION_NAME_MAX)
                    : e.dedicationName
                : null
            }
            autocomplete="off"
            maxLength={DEDICATION_NAME_MAX}
            onInput={(value) => form.set(dedication.name, value, "dedicationName")}
          />
          <TextField
            field="dedicationEmail"
            type="email"
            label={d.dedicationEmail}
            optional={t.common.optional}
            value={dedication.email.value}
            error={email ? e.email : null}
            autocomplete="off"
            maxLength={EMAIL_MAX}
            onInput={(value) => form.set(dedication.email, value, "dedicationEmail")}
          />
        </>
      ) : null}
    </>
  );
});

/**
 * A dedication as the schema takes one: walked by the request's check (request-check.ts), which
 * gives it the e-mail's check (this extra comes after later.ts: it carries no copy, nor a chunk
 * they share).
 */
export const dedicationShape = (isEmail: Check): Shape => ({
  kind: oneOf(DEDICATION_KINDS),
  name: (value) =>
    textWithin(1, DEDICATION_NAME_MAX, true)(value) && !DEDICATION_NAME_REFUSED.test(String(value).trim()),
  notify_email: optional(isEmail),
});
