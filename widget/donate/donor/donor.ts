import type { Locale } from "../../i18n";
import { computed, signal, type Signal } from "@preact/signals-core";
import type { DonationRequest } from "../../../contract/api";
import { asksFor, type DonateFields, type OptionalField } from "../base/attributes";

/** The donor's fields and the check boxes, by the name the form gives each. */
type DonorField =
  | "fullName"
  | "firstName"
  | "lastName"
  | "email"
  | "phone"
  | "street"
  | "city"
  | "state"
  | "zip"
  | "memo";
type DonorProblem = "required" | "missing" | "invalid" | "smsPhone";

/** A trimmed optional field: empty is left out. */
const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());

/** A text field left empty (or only spaces). */
const empty = (value: Signal<string>) => value.value.trim() === "";

/**
 * Who gives: name and e-mail always (the name in one field with `full-name`, sent as `full_name`),
 * and the fields the nonprofit turned on (`fields`): phone, address, message, the pledge wall,
 * anonymity, the SMS opt-in. What is off is never sent.
 *
 * @example
 * const donor = createDonorModel({ phone: true }, () => disclosure);
 * donor.asks("phone");     // true
 * donor.requires("phone"); // true: "phone:required"
 * donor.problems();        // { firstName: "required", lastName: "required", email: "required", phone: "missing" }
 */
export function createDonorModel(on: DonateFields, smsConsent: () => { text: string; locale: Locale }) {
  const fullName = signal("");
  const firstName = signal("");
  const lastName = signal("");
  const email = signal("");
  const phone = signal("");
  const street = signal("");
  const city = signal("");
  const state = signal("");
  const country = signal("US");
  const zip = signal("");
  const anonymous = signal(false);
  const pledgeWall = signal(false);
  const smsOptIn = signal(false);
  const memo = signal("");
  const asks = (field: OptionalField) => asksFor(on, field);
  /** One name field (`full-name`), sent as full_name, instead of first and last. */
  const oneName = asks("full-name");
  /** Whether the donor must fill a field in (`phone:required`); a check box never must. */
  const requires = (field: "phone" | "address" | "memo") => on[field] === true;
  const usesZip = computed(() => country.value === "US");

  return {
    fullName,
    firstName,
    lastName,
    email,
    phone,
    street,
    city,
    state,
    country,
    zip,
    usesZip,
    anonymous,
    pledgeWall,
    smsOptIn,
    memo,
    asks,
    requires,

    /** The donor's part of the request: a field that is off is left out, whatever its signal holds. */
    request(): Pick<
      DonationRequest,
      | "anonymous"
      | "pledge_wall"
      | "sms_opt_in_accepted"
      | "sms_consent_text"
      | "sms_consent_locale"
      | "memo"
      | "donor"
    > {
      // The disclosure as shown, and its language: read at the moment of giving (the donor may have switched).
      const consent = asks("sms") && smsOptIn.value ? smsConsent() : undefined;
      return {
        anonymous: asks("anonymous") ? anonymous.value : undefined,
        pledge_wall: asks("pledge-wall") ? pledgeWall.value : undefined,
        sms_opt_in_accepted: asks("sms") ? smsOptIn.value : undefined,
        sms_consent_text: consent?.text,
        sms_consent_locale: consent?.locale,
        memo: asks("memo") ? optional(memo.value) : undefined,
        donor: {
          ...(oneName
            ? { full_name: fullName.value }
            : { first_name: firstName.value, last_name: lastName.value }),
          email: email.value.trim(),
          phone: asks("phone") ? optional(phone.value) : undefined,
          ...(asks("address") && {
            street_address: optional(street.value),
            city: optional(city.value),
            state: optional(state.value),
            country: country.value,
            [usesZip.value ? "zip" : "postal_code"]: optional(zip.value),
          }),
        },
      };
    },

    /**
     * What the donor must still fill in, in words of its own ("required", "missing"); what a field
     * holds is the request's check's (request-check.ts).
     */
    problems(): Partial<Record<DonorField, DonorProblem>> {
      const problems: Partial<Record<DonorField, DonorProblem>> = {};
      /** Each of `fields` left empty has `problem`. */
      const need = (fields: Partial<Record<DonorField, Signal<string>>>, problem: DonorProblem) => {
        for (const field in fields)
          if (empty(fields[field as DonorField]!)) problems[field as DonorField] = problem;
      };
      need(oneName ? { email } : { firstName, lastName, email }, "required");
      need(
        {
          // Said as a field the nonprofit asks ("Fill in this field."): no words of its own to load.
          ...(oneName && { fullName }),
          ...(requires("phone") && { phone }),
          ...(requires("address") && { street, city, zip }),
          ...(requires("memo") && { memo }),
        },
        "missing",
      );
      if (asks("sms") && smsOptIn.value && empty(phone)) problems.phone = "smsPhone";
      return problems;
    },
  };
}
export type DonorModel = ReturnType<typeof createDonorModel>;
