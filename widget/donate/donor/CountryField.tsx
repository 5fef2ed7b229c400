import { CITY_MAX, POSTAL_CODE_MAX, STREET_MAX } from "../../../contract/patterns";
import type { Locale, Messages } from "../../i18n";
import { describedBy, FieldError, fieldId } from "../../shared/Field";
import { reactive } from "../../shared/reactive";
import type { TextField as LaterTextField } from "../../shared/TextField";
import type { DonateField, FormEdits } from "../base/fields";
import type { DonorModel } from "./donor";
import { countries } from "./countries";

interface CountryFieldProps {
  donor: DonorModel;
  form: FormEdits;
  t: Messages;
  locale: Locale;
  error: string | null;
}

/** The address's country, every one named in the donor's language; choosing one re-asks the ZIP or postal code. */
export const CountryField = reactive(({ donor, form, t, locale, error }: CountryFieldProps) => {
  return (
    <div class="gk-field">
      <label for={fieldId("country")} part="label">
        {t.donateLater.country}
      </label>
      <select
        id={fieldId("country")}
        autocomplete="country"
        part="input"
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy("country", error)}
        value={donor.country.value}
        onChange={(event) => {
          form.set(donor.country, event.currentTarget.value, "country");
          form.clearError("zip");
        }}
      >
        {countries(locale).map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      <FieldError field="country" error={error} />
    </div>
  );
});

interface AddressFieldsProps {
  donor: DonorModel;
  form: FormEdits;
  t: Messages;
  locale: Locale;
  /** A field's problem in the donor's words (DonorFields' own). */
  errorFor: (field: DonateField) => string | null;
  /** later.ts's text field, handed down rather than imported, so no third chunk is shared. */
  TextField: typeof LaterTextField;
}

/**
 * The address (`fields="address"`): street, city, state or province, country and the ZIP or
 * postal code, with the autocomplete tokens browsers fill in; each may stay empty unless the
 * nonprofit made the address required (`address:required`), the state always. An extra with the
 * country list: a form without the address loads none of it.
 */
export const AddressFields = reactive(
  ({ donor, form, t, locale, errorFor, TextField }: AddressFieldsProps) => {
    const d = t.donateLater;
    const optional = donor.requires("address") ? null : t.common.optional;
    const text = (
      field: "street" | "city" | "state" | "zip",
      autocomplete: string,
      maxLength: number,
      label: string = d[field],
      maybe = optional,
    ) => (
      <TextField
        field={field}
        label={label}
        optional={maybe}
        value={donor[field].value}
        error={errorFor(field)}
        autocomplete={autocomplete}
        maxLength={maxLength}
        onInput={(value) => form.set(donor[field], value, field)}
      />
    );
    return (
      <>
        {text("street", "address-line1", STREET_MAX)}
        <div class="gk-row">
          {text("city", "address-level2", CITY_MAX)}
          {text("state", "address-level1", CITY_MAX, d.state, t.common.optional)}
        </div>
        <div class="gk-row">
          <CountryField donor={donor} form={form} t={t} locale={locale} error={errorFor("country")} />
          {text("zip", "postal-code", POSTAL_CODE_MAX, donor.usesZip.value ? d.zip : d.postalCode)}
        </div>
      </>
    );
  },
);
