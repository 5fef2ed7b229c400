import { describe, expect, it } from "vitest";
import { feeCents, fromCents, toCents } from "./money";
import { AmountSchema, PositiveAmountSchema } from "./money-schemas";

describe("amounts travel as decimal strings", () => {
  it.each(["0", "-5", "1e3", "25.001", "NaN", "  25", "25 ", "0x10", ""])(
    "refuses %j as a positive amount",
    (raw) => {
      expect(PositiveAmountSchema.safeParse(raw).success).toBe(false);
    },
  );

  it.each([
    ["25", 2500],
    ["25.5", 2550],
    ["0.01", 1],
    ["999999999.99", 99999999999],
  ])("reads %j as %i cents", (raw, cents) => {
    expect(AmountSchema.safeParse(raw).success).toBe(true);
    expect(toCents(raw)).toBe(cents);
  });

  it("writes cents back with two decimals", () => {
    expect(fromCents(2605)).toBe("26.05");
    expect(fromCents(7)).toBe("0.07");
  });
});

describe("the processing fee", () => {
  it("is the amount times the rate, rounded half up to the cent", () => {
    expect(feeCents(2500, "0.042")).toBe(105);
    expect(feeCents(1999, "0.03")).toBe(60); // 59.97 → 60
    expect(feeCents(1000, "0.0225")).toBe(23); // 22.5 → 23
    expect(feeCents(1000, 0.03)).toBe(30);
    expect(feeCents(1000, "0")).toBe(0);
  });
});
