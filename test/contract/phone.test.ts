import { describe, expect, it } from "vitest";
import { normalizeMobile } from "../../contract/phone";

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
