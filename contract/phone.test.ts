import * as fc from "fast-check";
import { AsYouType, parsePhoneNumberFromString } from "libphonenumber-js/min";
import metadata from "libphonenumber-js/metadata.min.json";
import { describe, expect, it } from "vitest";
import { OTHER_NANP_AREA_CODES, formatMobileAsTyped, normalizeMobile } from "./phone";

describe("mobile numbers are normalized to the ten digits the upstream takes", () => {
  it.each([
    ["+1 (555) 010-1234", "5550101234"],
    ["15550101234", "5550101234"],
    ["555.010.1234", "5550101234"],
    ["(212) 555-0100", "2125550100"],
    ["+1 416 555 0199", "4165550199"],
  ])("accepts %j", (input, digits) => {
    expect(normalizeMobile(input)).toBe(digits);
  });

  it.each([
    ["nine digits", "555010123"],
    ["twelve digits", "155501012345"],
    ["a UK number", "+44 20 7946 0958"],
    ["a Jamaican number", "+1 876 555 0123"],
    ["an area code starting with 0", "0101234567"],
    ["letters", "555-CALL-NOW"],
    ["nothing", ""],
  ])("refuses %s", (_name, input) => {
    expect(normalizeMobile(input)).toBeNull();
  });
});

/*
 * contract/phone.ts writes the +1 rule out by hand; libphonenumber-js is its reference. The rule
 * as the library states it: a possible +1 number of the US or Canada (or of no country, as the
 * 555 examples are), ten digits with an area code not starting 0 or 1.
 */
const SERVED_COUNTRIES = new Set(["US", "CA"]);
function referenceNormalize(input: string): string | null {
  if (input.length > 32 || /[a-z]/i.test(input)) return null;
  const phone = parsePhoneNumberFromString(input, "US");
  if (!phone || phone.countryCallingCode !== "1" || !phone.isPossible()) return null;
  if (phone.country && !SERVED_COUNTRIES.has(phone.country)) return null;
  return /^[2-9]\d{9}$/.test(phone.nationalNumber) ? phone.nationalNumber : null;
}
const referenceAsTyped = (input: string) => new AsYouType("US").input(input);

const RUNS = 3000;
// Area codes of the NANP countries other than the US and Canada, and ordinary ones.
const AREA_CODES = [
  "876",
  "658",
  "787",
  "939",
  "809",
  "829",
  "849",
  "268",
  "242",
  "441",
  "340",
  "670",
  "721",
  "869",
  "555",
  "212",
  "416",
  "310",
  "800",
  "900",
  "604",
  "201",
];
const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(""));
const separator = fc.constantFrom("", " ", "-", ".", " - ");
const areaCode = fc
  .tuple(fc.integer({ min: 2, max: 9 }), digits(2, 2))
  .map(([first, rest]) => `${first}${rest}`);

/** A number as people write it: a prefix, an area code, then the rest, in any common style. */
const writtenNumber = fc
  .tuple(
    fc.constantFrom("", "1", "1 ", "+1", "+1 ", "+1-", "011 1 ", "+44 ", "1-"),
    // An area code never starts with 0 or 1 (that digit would be a trunk or calling-code prefix);
    // for such impossible numbers the library's as-you-type output is a quirk, not a rule.
    fc.oneof(fc.constantFrom(...AREA_CODES), areaCode),
    fc.boolean(),
    separator,
    digits(0, 4),
    separator,
    digits(0, 5),
  )
  .map(([prefix, area, parens, sep1, exchange, sep2, line]) =>
    `${prefix}${parens ? `(${area})` : area}${sep1}${exchange}${sep2}${line}`.trimEnd(),
  );

describe("the +1 rule answers as libphonenumber-js does", () => {
  it("knows the area codes of every other +1 country the library knows", () => {
    const min = metadata as unknown as {
      country_calling_codes: Record<string, string[]>;
      countries: Record<string, unknown[]>;
    };
    // Index 10 of a country's entry in the min metadata: its leading digits (area codes).
    const others = min.country_calling_codes["1"]!.filter((country) => !SERVED_COUNTRIES.has(country));
    expect(OTHER_NANP_AREA_CODES).toEqual(
      Object.fromEntries(others.map((country) => [country, min.countries[country]![10]])),
    );
  });

  it("normalizeMobile gives the same answer for numbers written in every common style", () => {
    fc.assert(
      fc.property(writtenNumber, (input) => {
        expect(normalizeMobile(input)).toBe(referenceNormalize(input));
      }),
      { numRuns: RUNS },
    );
  });

  it("normalizeMobile gives the same answer for any string of digits and punctuation", () => {
    const text = fc
      .array(fc.constantFrom(..."0123456789 +()-.".split("")), { maxLength: 16 })
      .map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, (input) => {
        expect(normalizeMobile(input)).toBe(referenceNormalize(input));
      }),
      { numRuns: RUNS },
    );
  });

  it("normalizeMobile gives the same answer for any text at all", () => {
    // All of Unicode: any code point (so other scripts' digits, fullwidth plus signs, lone
    // surrogates) and whole graphemes.
    const text = fc.oneof(
      fc.string({ maxLength: 40, unit: "binary" }),
      fc.string({ maxLength: 40, unit: "grapheme" }),
    );
    fc.assert(
      fc.property(text, (input) => {
        expect(normalizeMobile(input)).toBe(referenceNormalize(input));
      }),
      { numRuns: RUNS },
    );
  });

  it("normalizeMobile keeps the named cases", () => {
    for (const input of [
      "+1 (555) 010-1234",
      "15550101234",
      "555.010.1234",
      "+1 416 555 0199",
      "+1 876 555 0123",
      "+44 20 7946 0958",
      "555010123",
    ]) {
      expect(normalizeMobile(input)).toBe(referenceNormalize(input));
    }
  });

  it("formats every step of typing a number the same way", () => {
    const typed = fc.tuple(
      fc.constantFrom("", "1", "+1", "011 1"),
      fc.integer({ min: 2, max: 9 }),
      digits(0, 10),
    );
    fc.assert(
      fc.property(typed, ([prefix, first, rest]) => {
        const whole = `${prefix}${first}${rest}`;
        for (let end = 0; end <= whole.length; end++) {
          const input = whole.slice(0, end);
          expect(formatMobileAsTyped(input)).toBe(referenceAsTyped(input));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("formats numbers written in common styles the same way", () => {
    // Other calling codes ("+44 …", "011 44 …") are outside the +1 rule.
    const usOnly = writtenNumber.filter((input) => !/^(\+|011)(?!\s*1)/.test(input.replace(/[^\d+]/g, "")));
    fc.assert(
      fc.property(usOnly, (input) => {
        expect(formatMobileAsTyped(input)).toBe(referenceAsTyped(input));
      }),
      { numRuns: RUNS },
    );
  });
});
