// The extras (beside their parts: donor/CountryField, donor/phone-rule, options/dedication, gift/MonthlyPrompt, outcome/data-layer) come with the rest of the form only when the element's
// attributes turn them on: a plain form fetches none of them.
import { describe, expect, it } from "vitest";
import { readDonateAttributes } from "./base/attributes";
import { extrasFor, loadLater } from "./load-later";

const EXTRAS = [
  "CountryField",
  "normalizeMobile",
  "DedicationFields",
  "MonthlyPrompt",
  "pushPurchase",
] as const;

/** The extras a form with these attributes has once the rest of it has come. */
async function extrasOf(attributes: Record<string, string>) {
  const all: Record<string, string> = {
    proxy: "https://give.example.org",
    shortcode: "71777",
    keyword: "HOPE",
    ...attributes,
  };
  const result = readDonateAttributes((name) => all[name] ?? null);
  if (!result.ok) throw new Error(result.problem);
  const later = await loadLater("en", extrasFor(result.props));
  expect(typeof later.DonorFields).toBe("function");
  return EXTRAS.filter((name) => later[name] !== undefined);
}

describe("the extras of the rest of the form", () => {
  it("a plain form has none", async () => {
    expect(await extrasOf({})).toEqual([]);
  });

  it("each comes with the attribute that turns it on", async () => {
    expect(await extrasOf({ fields: "address" })).toEqual(["CountryField"]);
    expect(await extrasOf({ fields: "phone" })).toEqual(["normalizeMobile"]);
    // The SMS opt-in (with the program its disclosure names) asks the phone, so its rule comes too.
    const program = {
      "program-name": "Hope Shelter Alerts",
      "terms-url": "https://hope.example.org/sms-terms",
      "privacy-url": "https://hope.example.org/privacy",
    };
    expect(await extrasOf({ fields: "sms,memo", ...program })).toEqual(["normalizeMobile"]);
    expect(await extrasOf({ fields: "dedication" })).toEqual(["DedicationFields"]);
    expect(await extrasOf({ "monthly-prompt": "" })).toEqual(["MonthlyPrompt"]);
    expect(await extrasOf({ "data-layer": "" })).toEqual(["pushPurchase"]);
    expect(
      await extrasOf({
        fields: "address,phone:required,dedication",
        "monthly-prompt": "30%",
        "data-layer": "",
      }),
    ).toEqual([...EXTRAS]);
  });
});
