import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanUtmValue, readUtm, UTM_KEYS, UTM_VALUE_MAX } from "./utm";

describe("readUtm: the page's campaign tags, cleaned and never refused", () => {
  it("reads the five tags from a query string and ignores everything else", () => {
    const query = new URLSearchParams(
      "?utm_source=newsletter&utm_medium=email&utm_campaign=giving-tuesday&utm_term=shelter&utm_content=button&fbclid=x&amount=100",
    );
    expect(readUtm(query)).toEqual({
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: "giving-tuesday",
      utm_term: "shelter",
      utm_content: "button",
    });
  });

  it("cuts a value past 100 code points (an emoji counts once) and drops control characters", () => {
    expect(cleanUtmValue("a".repeat(250))).toBe("a".repeat(UTM_VALUE_MAX));
    expect(cleanUtmValue("😀".repeat(120))).toBe("😀".repeat(UTM_VALUE_MAX));
    expect(cleanUtmValue("spring\u0000\r\n appeal\u2028")).toBe("spring appeal");
    expect(cleanUtmValue(" \t\u0007 ")).toBeUndefined();
  });

  it("gives nothing for what is not text, and never throws, whatever it is given", () => {
    expect(readUtm({ utm_source: 5, utm_medium: ["email"], utm_campaign: null })).toEqual({});
    expect(readUtm("utm_source=x")).toEqual({});
    expect(readUtm(null)).toEqual({});
    expect(readUtm(Object.create({ utm_source: "inherited" }))).toEqual({});
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const utm = readUtm(value);
        for (const [key, kept] of Object.entries(utm)) {
          expect(UTM_KEYS).toContain(key);
          expect([...kept!].length).toBeLessThanOrEqual(UTM_VALUE_MAX);
          // oxlint-disable-next-line no-control-regex -- control characters are what must be gone.
          expect(kept).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        }
      }),
    );
  });
});
