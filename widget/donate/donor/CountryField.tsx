import type { Locale, Messages } from "../../i18n";
import { describedBy, FieldError, fieldId } from "../../shared/Field";
import { reactive } from "../../shared/reactive";
import type { FormEdits } from "../base/fields";
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
