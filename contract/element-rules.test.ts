import { describe, expect, it } from "vitest";
import { webUrl, wholeNumber } from "./element-rules";
import {
  checkDesign,
  checkSavedDesign,
  FORM_ELEMENTS,
  type DesignContext,
  type FormDesign,
  type FormElement,
} from "./saved-forms";

const CONTEXT: DesignContext = {
  campaign: { min_amount: "5.00", max_amount: "10000.00", recurring_frequencies: ["monthly"] },
  allowedOrigins: ["https://hope.example"],
};

const design = (element: FormElement, attributes: Record<string, string>): FormDesign => ({
  element,
  shortcode: "71777",
  keyword: "HOPE",
  attributes,
  theme: {},
});

/** The problems of a design, by the control they name. */
const problems = (element: FormElement, attributes: Record<string, string>) =>
  Object.fromEntries(checkDesign(design(element, attributes), CONTEXT).map((p) => [p.field, p.message]));

const OPTIN = {
  "program-name": "Hope Shelter Alerts",
  "terms-url": "https://hope.example/sms-terms",
  "privacy-url": "https://hope.example/privacy",
};

describe("a design of each element, checked by the rules the element reads its attributes with", () => {
  it("offers the six elements", () => {
    expect(FORM_ELEMENTS).toEqual(["donate", "button", "optin", "goal", "wall", "leaderboard"]);
  });

  it("an opt-in needs its program's name and both links, and names each that is missing or wrong", () => {
    expect(problems("optin", OPTIN)).toEqual({});
    expect(problems("optin", {})).toEqual({
      "program-name": expect.stringMatching(/^is required: the name of the SMS program/),
      "terms-url": "is required: an http or https URL of the SMS terms",
      "privacy-url": "is required: an http or https URL of the privacy policy",
    });
    expect(
      problems("optin", {
        ...OPTIN,
        "program-name": " ".repeat(3),
        "terms-url": "javascript:alert(1)",
        list: "x".repeat(101),
      }),
    ).toEqual({
      "program-name": "must be the name of the SMS program shown in the disclosure (1 to 100 characters)",
      "terms-url": "must be an http or https URL",
      list: "must be the name of a list (1 to 100 characters)",
    });
    expect(problems("optin", { ...OPTIN, amounts: "50,100" })).toEqual({
      amounts: "is not an attribute of <givekit-optin>",
    });
  });

  it("a goal asks at most every 15 seconds, in a whole number of them", () => {
    expect(problems("goal", { refresh: "60", locale: "es-MX" })).toEqual({});
    expect(problems("goal", { refresh: "10" })).toEqual({
      refresh: "must be a whole number of seconds, at least 15",
    });
    expect(problems("goal", { refresh: "20.5" }).refresh).toBeDefined();
    expect(problems("goal", { locale: "xx" }).locale).toMatch(/^must be a language givekit speaks: en, es/);
  });

  it("a wall shows 1 to 50 gifts, their amounts shown or hidden", () => {
    expect(problems("wall", { limit: "50", amounts: "hidden" })).toEqual({});
    expect(problems("wall", { limit: "80", amounts: "50,100" })).toEqual({
      limit: "must be a whole number from 1 to 50",
      amounts: 'must be "hidden" or "shown"',
    });
  });

  it("a leaderboard ranks teams or fundraisers, 1 to 50, its Give links on a web page", () => {
    expect(
      problems("leaderboard", {
        of: "fundraisers",
        limit: "5",
        refresh: "30",
        "donate-url": "https://hope.example/give",
      }),
    ).toEqual({});
    expect(
      problems("leaderboard", { of: "donors", limit: "0", refresh: "5", "donate-url": "ftp://x.example" }),
    ).toEqual({
      of: 'must be "teams" or "fundraisers"',
      limit: "must be a whole number from 1 to 50",
      refresh: "must be a whole number of seconds, at least 15",
      "donate-url": "must be an http or https URL",
    });
  });

  it("a button takes its text and the form's attributes, checked as the form's", () => {
    expect(problems("button", { label: "Give now", amounts: "50,100", "default-amount": "100" })).toEqual({});
    expect(
      problems("button", {
        amounts: "2,100",
        fundraiser: "no spaces",
        heading: "x".repeat(121),
        "monthly-prompt": "a third",
      }),
    ).toEqual({
      amounts: "every amount must be from 5.00 to 10000.00, the campaign's limits",
      fundraiser: "must be an id of letters, digits, - and _",
      heading: "must be 1 to 120 characters",
      "monthly-prompt": 'must be empty, a share such as "30%" or an amount such as "20"',
    });
    expect(problems("donate", { "monthly-prompt": "30%" })).toEqual({});
  });

  it("a donation form's languages to switch between are givekit's, each by its code", () => {
    expect(problems("donate", { locales: "en,es,vi" })).toEqual({});
    expect(problems("button", { locales: "en,klingon" })).toEqual({
      locales: expect.stringMatching(/^"klingon" is not a language givekit speaks \(en, es, fr/),
    });
    // The language switch offers a language by its code: a region's form is not one it lists.
    expect(problems("donate", { locales: "es-MX,en" }).locales).toMatch(/^"es-MX" is not/);
    expect(problems("optin", { ...OPTIN, locales: "en,es" })).toEqual({
      locales: "is not an attribute of <givekit-optin>",
    });
  });

  it("a donation form's SMS box needs the program's name and both links, as the form leaves it out without them", () => {
    expect(problems("donate", { fields: "sms", ...OPTIN })).toEqual({});
    expect(
      problems("donate", { fields: "phone:required, SMS:required", "program-name": "Hope Alerts" }),
    ).toEqual({
      fields:
        'fields="sms" needs program-name, terms-url and privacy-url (its disclosure names them); the SMS box is left out',
    });
    expect(problems("donate", { fields: "memo,bogus" })).toEqual({ fields: '"bogus" is not a field' });
  });

  it("a donation form shows at most 8 amounts, as the form leaves the rest out", () => {
    const nine = "5,10,15,20,25,30,35,40,45";
    expect(problems("donate", { amounts: "5,10,15,20,25,30,35,40,40" })).toEqual({});
    expect(problems("donate", { amounts: nine, "monthly-amounts": `${nine},50` })).toEqual({
      amounts: "lists more than 8; the rest are left out",
      "monthly-amounts": "lists more than 8; the rest are left out",
    });
  });

  it("saves a donate design only: another element's save is refused, naming the element", () => {
    expect(checkSavedDesign(design("donate", { amounts: "50,100" }), CONTEXT)).toEqual([]);
    for (const element of ["button", "optin", "goal", "wall", "leaderboard"] as const)
      expect(checkSavedDesign(design(element, element === "optin" ? OPTIN : {}), CONTEXT)).toEqual([
        {
          field: "element",
          message: expect.stringContaining(`a <givekit-${element}> design is not saved`),
        },
      ]);
  });
});

describe("the rules themselves", () => {
  it("wholeNumber reads a whole number within its bounds, as Number reads it", () => {
    expect(wholeNumber("12", 1, 50)).toBe(12);
    expect(wholeNumber(" 20 ", 15)).toBe(20);
    for (const bad of ["0", "51", "1.5", "abc", "", "Infinity"]) expect(wholeNumber(bad, 1, 50)).toBeNull();
  });

  it("webUrl takes http and https only, a relative address only against a page's", () => {
    expect(webUrl("https://hope.example/give")?.href).toBe("https://hope.example/give");
    expect(webUrl("/give")).toBeNull();
    expect(webUrl("/give", "https://hope.example/walk")?.href).toBe("https://hope.example/give");
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "mailto:a@b.example"])
      expect(webUrl(bad, "https://hope.example/")).toBeNull();
  });
});
