import { CITY_MAX, EMAIL_MAX, NAME_MAX, POSTAL_CODE_MAX, STREET_MAX } from "../../../contract/patterns";
import type { Locale, Messages } from "../../i18n";
import type { DonateField } from "../base/fields";
import type { DonationModel } from "../DonationModel";
import { TextField } from "../../shared/TextField";
import { reactive } from "../../shared/reactive";

interface DonorFieldsProps {
  model: DonationModel;
  t: Messages;
  locale: Locale;
  errorFor: (field: DonateField) => string | null;
}

type TextFieldName = "firstName" | "lastName" | "email" | "phone" | "street" | "city" | "state";

/**
 * Each text field: its autocomplete token, its longest value, and whether it may stay empty:
 * never, always, or unless the nonprofit made it required (`phone:required`, `address:required`).
 */
const FIELDS: [TextFieldName, string, number, boolean | "phone" | "address"][] = [
  ["firstName", "given-name", NAME_MAX, false],
  ["lastName", "family-name", NAME_MAX, false],
  ["email", "email", EMAIL_MAX, false],
  ["phone", "tel", 32, "phone"],
  ["street", "address-line1", STREET_MAX, "address"],
  ["city", "address-level2", CITY_MAX, "address"],
  ["state", "address-level1", CITY_MAX, true],
];

/**
 * The donor's name and e-mail, and the phone and address when the nonprofit turned them on,
 * with the autocomplete tokens browsers fill in.
 */
export const DonorFields = reactive(({ model, t, locale, errorFor }: DonorFieldsProps) => {
  const d = t.donateLater;
  const labels = { ...t.common, ...d };
  // Made with later.ts, as this component was.
  const donor = model.donor()!;
  const { asks, requires } = donor;
  // The country's list is a part of its own, fetched with later.ts when the address is asked.
  const Later = model.later.value!;
  const field = ([name, autocomplete, max, optional]: (typeof FIELDS)[number]) => (
    <TextField
      key={name}
      field={name}
      label={labels[name]}
      type={name === "email" ? "email" : name === "phone" ? "tel" : "text"}
      optional={optional === true || (optional && !requires(optional)) ? t.common.optional : null}
      value={donor[name].value}
      error={errorFor(name)}
      autocomplete={autocomplete}
      maxLength={max}
      onInput={(value) => model.set(donor[name], value, name)}
    />
  );
  const [first, last, email, phone, street, city, state] = FIELDS.map(field);
  return (
    <fieldset>
      <legend part="legend">{d.donorLegend}</legend>
      <div class="gk-row">
        {first}
        {last}
      </div>
      {email}
      {asks("phone") ? phone : null}
      {asks("address") ? (
        <>
          {street}
          <div class="gk-row">
            {city}
            {state}
          </div>
          <div class="gk-row">
            {Later.CountryField ? (
              <Later.CountryField model={model} t={t} locale={locale} errorFor={errorFor} />
            ) : null}
            <TextField
              field="zip"
              label={donor.usesZip.value ? d.zip : d.postalCode}
              optional={requires("address") ? null : t.common.optional}
              value={donor.zip.value}
              error={errorFor("zip")}
              autocomplete="postal-code"
              maxLength={POSTAL_CODE_MAX}
              onInput={(value) => model.set(donor.zip, value, "zip")}
            />
          </div>
        </>
      ) : null}
    </fieldset>
  );
});
