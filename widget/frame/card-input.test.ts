import { describe, expect, it } from "vitest";
import {
  caretAfterDigits,
  cardProblems,
  formatCardNumber,
  formatExpiryInput,
  looksFinished,
  normalizeExpiry,
} from "./card-input";

const NOW = new Date("2026-11-22T12:00:00Z");

describe("card input as the donor types it", () => {
  it("spaces numbers by brand", () => {
    expect(formatCardNumber("4242424242424242", "visa")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("42424", "visa")).toBe("4242 4");
    expect(formatCardNumber("378282246310005", "amex")).toBe("3782 822463 10005");
    expect(formatCardNumber("4242424242424242123", "visa")).toBe("4242 4242 4242 4242 123");
  });

  it("keeps the caret after the digit just typed", () => {
    expect(caretAfterDigits("4242 4242", 5)).toBe(6);
    expect(caretAfterDigits("4242 4242", 4)).toBe(4);
    expect(caretAfterDigits("4242", 0)).toBe(0);
  });

  it("shapes the expiry: MM/YY typed works, MM/YYYY is what is sent", () => {
    expect(formatExpiryInput("4", false)).toBe("04/");
    expect(formatExpiryInput("1", false)).toBe("1");
    expect(formatExpiryInput("1/", false)).toBe("01/");
    expect(formatExpiryInput("12", false)).toBe("12/");
    expect(formatExpiryInput("12", true)).toBe("12");
    expect(formatExpiryInput("0427", false)).toBe("04/27");
    expect(formatExpiryInput("12//2034", false)).toBe("12/2034");
    expect(normalizeExpiry("4/30")).toBe("04/2030");
    expect(normalizeExpiry("04/2030")).toBe("04/2030");
    expect(normalizeExpiry("13/30")).toBeNull();
  });

  it("checks Luhn, the date and the security code length by brand", () => {
    expect(cardProblems({ number: "4242 4242 4242 4242", expiry: "12/2034", cvv: "123" }, NOW)).toEqual({});
    expect(cardProblems({ number: "4242 4242 4242 4241", expiry: "10/2026", cvv: "12" }, NOW)).toEqual({
      number: "numberInvalid",
      expiry: "expired",
      cvv: "cvvInvalid",
    });
    expect(cardProblems({ number: "3782 822463 10005", expiry: "11/2026", cvv: "123" }, NOW)).toEqual({
      cvv: "cvvInvalid",
    });
    expect(cardProblems({ number: "3782 822463 10005", expiry: "11/26", cvv: "1234" }, NOW)).toEqual({});
    expect(cardProblems({ number: "", expiry: "1/2", cvv: "" }, NOW)).toMatchObject({
      expiry: "expiryInvalid",
    });
  });

  it("judges a field before the donor leaves it only once it looks finished", () => {
    expect(looksFinished("number", { number: "4242 4242 4242 424", expiry: "", cvv: "" })).toBe(false);
    expect(looksFinished("number", { number: "4242 4242 4242 4242", expiry: "", cvv: "" })).toBe(true);
    expect(looksFinished("number", { number: "3782 822463 10005", expiry: "", cvv: "" })).toBe(true);
    expect(looksFinished("expiry", { number: "", expiry: "04/20", cvv: "" })).toBe(false);
    expect(looksFinished("expiry", { number: "", expiry: "04/2020", cvv: "" })).toBe(true);
    expect(looksFinished("cvv", { number: "3782 822463 10005", expiry: "", cvv: "123" })).toBe(false);
  });
});
