import { describe, expect, it } from "vitest";
import { createDonorModel } from "./donor";

const DISCLOSURE = "Text me updates from Hope Shelter Alerts. Msg frequency varies.";

describe("the donor model", () => {
  it("with the defaults asks name and e-mail only, and sends nothing of a field that is off", () => {
    const donor = createDonorModel({}, () => ({ text: DISCLOSURE, locale: "en" }));
    expect(donor.asks("phone")).toBe(false);
    donor.firstName.value = "Ada";
    donor.lastName.value = "Lovelace";
    donor.email.value = " ada@example.org ";
    donor.phone.value = "5550101234";
    donor.street.value = "1 Harbor Street";
    donor.memo.value = "For the shelter";
    donor.smsOptIn.value = true;
    expect(donor.request()).toEqual({
      anonymous: undefined,
      pledge_wall: undefined,
      sms_opt_in_accepted: undefined,
      sms_consent_text: undefined,
      memo: undefined,
      donor: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.org", phone: undefined },
    });
    expect(donor.problems()).toEqual({});
  });

  it('with "full-name" asks and sends one name, full_name, and no first or last name', () => {
    const donor = createDonorModel({ "full-name": false }, () => ({ text: DISCLOSURE, locale: "en" }));
    expect(donor.problems()).toEqual({ fullName: "missing", email: "required" });
    donor.firstName.value = "Ignored";
    donor.fullName.value = "Ada King Lovelace";
    donor.email.value = "ada@example.org";
    expect(donor.request().donor).toEqual({
      full_name: "Ada King Lovelace",
      email: "ada@example.org",
      phone: undefined,
    });
    expect(donor.problems()).toEqual({});
  });

  it("names what is missing: the names and e-mail always, a required field when empty", () => {
    const donor = createDonorModel({ phone: true, address: false, memo: true }, () => ({
      text: DISCLOSURE,
      locale: "en",
    }));
    expect(donor.requires("phone")).toBe(true);
    expect(donor.requires("address")).toBe(false);
    expect(donor.problems()).toEqual({
      firstName: "required",
      lastName: "required",
      email: "required",
      phone: "missing",
      memo: "missing",
    });
  });

  it("a ticked SMS box needs the phone, and sends the disclosure word for word", () => {
    const donor = createDonorModel({ sms: false }, () => ({ text: DISCLOSURE, locale: "en" }));
    expect(donor.asks("phone")).toBe(true);
    donor.smsOptIn.value = true;
    expect(donor.problems().phone).toBe("smsPhone");
    donor.phone.value = "(555) 010-1234";
    expect(donor.problems().phone).toBeUndefined();
    expect(donor.request()).toMatchObject({ sms_opt_in_accepted: true, sms_consent_text: DISCLOSURE });
  });

  it("sends the address with a ZIP in the US and a postal code elsewhere", () => {
    const donor = createDonorModel({ address: false }, () => ({ text: DISCLOSURE, locale: "en" }));
    donor.zip.value = " 02134 ";
    expect(donor.request().donor).toMatchObject({ country: "US", zip: "02134" });
    donor.country.value = "CA";
    donor.zip.value = "K1A 0B1";
    expect(donor.usesZip.value).toBe(false);
    expect(donor.request().donor).toMatchObject({ country: "CA", postal_code: "K1A 0B1" });
  });
});
