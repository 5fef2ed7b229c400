import { describe, expect, it } from "vitest";
import { readDonation } from "../outcome/donation-responses";

const success = (amount: string) => ({
  donation: {
    status: "Success",
    message: "Thank you",
    transaction_id: "t-1",
    amount,
    fee_amount: "0.00",
    recurring_frequency: null,
  },
});

describe("the widget reads the proxy's donation answer by the contract's amount rule", () => {
  it("accepts a plain amount", () => {
    expect(readDonation(success("25.50"))?.donation).toMatchObject({ amount: "25.50" });
  });

  it.each(["007", "1e3", "-5", "25.555", " 25"])("refuses %j, as the contract does", (amount) => {
    expect(readDonation(success(amount))).toBeNull();
  });
});
