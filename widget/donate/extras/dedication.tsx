/**
 * A gift dedicated to someone (`fields="dedication"`): its fields, its model and its part of the
 * request's check. An extra: fetched beside later.ts only by a form that asks for a dedication.
 */
import type { DonationRequest } from "../../../contract/api";
import {
  DEDICATION_KINDS,
  DEDICATION_NAME_MAX,
  DEDICATION_NAME_REFUSED,
  memoFits,
} from "../../../contract/dedication";
import { EMAIL_MAX, EMAIL_PATTERN } from "../../../contract/patterns";
import { Checkbox, Choices } from "../../shared/Field";
import { reactive } from "../../shared/reactive";
import type { OptionsProps } from "../DonorOptions";
import { isObject, oneOf, optional, pattern, textWithin, type Shape } from "../../shared/checks";

export { createDedicationModel } from "../model/dedication";

/** `fields="dedication"`: a box that, ticked, asks whom the gift honors or remembers, and whom to tell. */
export const DedicationFields = reactive(({ model, t, errorFor }: OptionsProps) => {
  const d = t.donateLater;
  // Made with later.ts, as this component was.
  const dedication = model.dedication()!;
  // later.ts's text field: this extra comes after it, so it carries no copy (nor a chunk they share).
  const { TextField } = model.later.value!;
  return (
    <>
      <Checkbox
        field="dedicate"
        label={d.dedicate}
        checked={dedication.on.value}
        onChange={(checked) => model.set(dedication.on, checked, "dedicationName")}
      />
      {dedication.on.value ? (
        <>
          <Choices
            field="dedicationKind"
            legend={d.dedicationKind}
            choices={DEDICATION_KINDS}
            labelOf={(kind) => d.dedicationKinds[kind]}
            chosen={dedication.kind.value}
            onChoose={(kind) => model.set(dedication.kind, kind)}
          />
          <TextField
            field="dedicationName"
            label={d.dedicationName}
            optional={null}
            value={dedication.name.value}
            error={errorFor("dedicationName")}
            autocomplete="off"
            maxLength={DEDICATION_NAME_MAX}
            onInput={(value) => model.set(dedication.name, value, "dedicationName")}
          />
          <TextField
            field="dedicationEmail"
            type="email"
            label={d.dedicationEmail}
            optional={t.common.optional}
            value={dedication.email.value}
            error={errorFor("dedicationEmail")}
            autocomplete="off"
            maxLength={EMAIL_MAX}
            onInput={(value) => model.set(dedication.email, value, "dedicationEmail")}
          />
        </>
      ) : null}
    </>
  );
});

const DEDICATION: Shape = {
  kind: oneOf(DEDICATION_KINDS),
  name: (value) =>
    textWithin(1, DEDICATION_NAME_MAX, true)(value) && !DEDICATION_NAME_REFUSED.test(String(value).trim()),
  notify_email: optional(pattern(EMAIL_PATTERN)),
};

/**
 * The dedication's part of the request's check (request-check.ts): the paths the schema refuses
 * in it, and the dedication's name when the message and its line would not fit the memo.
 */
export function dedicationRefusals(request: Pick<DonationRequest, "memo" | "dedication">): string[] {
  const { dedication } = request;
  const refused = isObject(dedication)
    ? Object.keys(DEDICATION)
        .filter((key) => !DEDICATION[key]!(dedication[key as keyof typeof dedication]))
        .map((key) => `dedication.${key}`)
    : [];
  if (!memoFits(request.memo, dedication)) refused.push("dedication.name");
  return refused;
}
