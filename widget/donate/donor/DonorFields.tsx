import { FULL_NAME_MAX, NAME_MAX, EMAIL_MAX } from "../../../contract/patterns";
import type { Locale, Messages } from "../../i18n";
import type { DonateField, FormEdits } from "../base/fields";
import { AddressFields } from "./country-field";
import type { DonorModel } from "./donor";
import { donorProblemText } from "./problem-text";
import { TextField } from "../../shared/TextField";
import { reactive } from "../../shared/reactive";

interface DonorFieldsProps {
  /** Made with later.ts, as this component was. */
  donor: DonorModel;
  form: FormEdits;
  t: Messages;
  locale: Locale;
}

type TextFieldName = "fullName" | "firstName" | "lastName" | "email" | "phone";

/**
 * Each text field: its autocomplete token, its longest value, and whether it may stay empty:
 * never, or unless the nonprofit made it required (`phone:required`). The address's come with
 * its extra (CountryField.tsx).
 */
const FIELDS: [TextFieldName, string, number, false | "phone"][] = [
  ["fullName", "name", FULL_NAME_MAX, false],
  ["firstName", "given-name", NAME_MAX, false],
  ["lastName", "family-name", NAME_MAX, false],
  ["email", "email", EMAIL_MAX, false],
  ["phone", "tel", 32, "phone"],
];

/**
 * The donor's name (first and last, or one field with `fields="full-name"`) and e-mail, and the
 * phone and address when the nonprofit turned them on, with the autocomplete tokens browsers fill in.
 */
export const DonorFields = reactive(({ donor, form, t, locale }: DonorFieldsProps) => {
  const d = t.donateLater;
  const labels = { ...t.common, ...d };
  const { asks, requires } = donor;
  const errors = form.errors.value;
  const errorFor = (field: DonateField) => {
    const problem = errors[field];
    return problem ? donorProblemText(t, field, problem, donor.usesZip.value) : null;
  };
  const field = ([name, autocomplete, max, optional]: (typeof FIELDS)[number]) => (
    <TextField
      key={name}
      field={name}
      label={labels[name]}
      type={name === "email" ? "email" : name === "phone" ? "tel" : "text"}
      optional={optional && !requires(optional) ? t.common.optional : null}
      value={donor[name].value}
      error={errorFor(name)}
      autocomplete={autocomplete}
      maxLength={max}
      onInput={(value) => form.set(donor[name], value, name)}
    />
  );
  const [full, first, last, email, phone] = FIELDS.map(field);
  return (
    <fieldset>
      <legend part="legend">{d.donorLegend}</legend>
      <div class="gk-row">{asks("full-name") ? full : [first, last]}</div>
      {email}
      {asks("phone") ? phone : null}
      {asks("address") ? (
        <AddressFields
          donor={donor}
          form={form}
          t={t}
          locale={locale}
          errorFor={errorFor}
          TextField={TextField}
        />
      ) : null}
    </fieldset>
  );
});
