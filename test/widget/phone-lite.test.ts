import * as fc from "fast-check";
import { AsYouType as RealAsYouType } from "libphonenumber-js/min";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { normalizeMobile as realNormalize } from "../../contract/phone";
import { AsYouType as LiteAsYouType } from "../../widget/shared/phone-lite";

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

/** A number as people write it: a prefix, an area code, then the rest, in any common style. */
const writtenNumber = fc
  .tuple(
    fc.constantFrom("", "1", "1 ", "+1", "+1 ", "+1-", "011 1 ", "+44 ", "1-"),
    fc.oneof(fc.constantFrom(...AREA_CODES), digits(3, 3)),
    fc.boolean(),
    separator,
    digits(0, 4),
    separator,
    digits(0, 5),
  )
  .map(([prefix, area, parens, sep1, exchange, sep2, line]) =>
    `${prefix}${parens ? `(${area})` : area}${sep1}${exchange}${sep2}${line}`.trimEnd(),
  );

let liteNormalize: (input: string) => string | null;

beforeAll(async () => {
  vi.resetModules();
  vi.doMock("libphonenumber-js/min", () => import("../../widget/shared/phone-lite"));
  ({ normalizeMobile: liteNormalize } = await import("../../contract/phone"));
  vi.doUnmock("libphonenumber-js/min");
});

describe("the widget's +1 phone module answers as libphonenumber-js does", () => {
  it("normalizeMobile gives the same answer for numbers written in every common style", () => {
    fc.assert(
      fc.property(writtenNumber, (input) => {
        expect(liteNormalize(input)).toBe(realNormalize(input));
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
        expect(liteNormalize(input)).toBe(realNormalize(input));
      }),
      { numRuns: RUNS },
    );
  });

  it("normalizeMobile keeps the named cases of the contract", () => {
    for (const input of [
      "+1 (555) 010-1234",
      "15550101234",
      "555.010.1234",
      "+1 416 555 0199",
      "+1 876 555 0123",
      "+44 20 7946 0958",
      "555010123",
    ]) {
      expect(liteNormalize(input)).toBe(realNormalize(input));
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
          expect(new LiteAsYouType("US").input(input)).toBe(new RealAsYouType("US").input(input));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("formats numbers written in common styles the same way", () => {
    // Other calling codes ("+44 …", "011 44 …") are outside what the widget's module knows.
    const usOnly = writtenNumber.filter((input) => !/^(\+|011)(?!\s*1)/.test(input.replace(/[^\d+]/g, "")));
    fc.assert(
      fc.property(usOnly, (input) => {
        expect(new LiteAsYouType("US").input(input)).toBe(new RealAsYouType("US").input(input));
      }),
      { numRuns: RUNS },
    );
  });
});
