import type { Locale, Messages } from "../../i18n";
import { describedBy, FieldError, fieldId } from "../../shared/Field";
import { reactive } from "../../shared/reactive";
import type { DonateField } from "../base/fields";
import type { DonationModel } from "../DonationModel";
import { countries } from "./countries";

interface CountryFieldProps {
  model: DonationModel;
  t: Messages;
  locale: Locale;
  errorFor: (field: DonateField) => string | null;
}

/** The address's country, every one named in the donor's language; choosing one re-asks the ZIP or postal code. */
export const CountryField = reactive(({ model, t, locale, errorFor }: CountryFieldProps) => {
  // Made with later.ts, which comes with this part.
  const donor = model.donor()!;
  const error = errorFor("country");
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
          model.set(donor.country, event.currentTarget.value, "country");
          model.clearError("zip");
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
