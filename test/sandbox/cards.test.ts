// Test cards (Stripe's numbers) and create_payment_token's card checks.
import { beforeEach, describe, expect, it } from "vitest";
import { auth, call, collected, donate, donation, login, useSandbox } from "./support";

describe("test cards", () => {
  const ctx = useSandbox();

  it("4242424242424242 succeeds: Success, and the money is collected", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(
      ctx.sandbox,
      session,
      donation({ card_number: "4242424242424242", amount: "10" }),
    );
    expect(answer.json.donation.status).toBe("Success");
    expect((await collected(ctx.sandbox)).map((row) => [row.amount, row.last_4])).toEqual([
      ["10.00", "4242"],
    ]);
  });

  it("4000000000000002 is declined: status Error, no transaction_id, nothing collected", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ card_number: "4000000000000002" }));
    expect(answer.status).toBe(200);
    expect(answer.json.donation).toEqual({ status: "Error", message: expect.stringMatching(/declined/i) });
    expect(await collected(ctx.sandbox)).toEqual([]);
    expect((await ctx.sandbox.transactions()).map((row) => [row.status, row.last_4])).toEqual([
      ["declined", "0002"],
    ]);
  });

  it("any Luhn-valid number ending in 0002 is declined: distinct declining cards, none collected", async () => {
    const session = await login(ctx.sandbox);
    // Luhn-valid, each ending in 0002.
    const cards = ["4111111111150002", "5555555555570002", "6011111111110002"];
    for (const card_number of cards) {
      const answer = await donate(ctx.sandbox, session, donation({ card_number }));
      expect(answer.json.donation, card_number).toEqual({
        status: "Error",
        message: expect.stringMatching(/declined/i),
      });
    }
    expect(await collected(ctx.sandbox)).toEqual([]);
    expect((await ctx.sandbox.transactions()).map((row) => [row.status, row.brand, row.last_4])).toEqual([
      ["declined", "visa", "0002"],
      ["declined", "mastercard", "0002"],
      ["declined", "discover", "0002"],
    ]);
  });

  it("a number ending in 0002 that fails the Luhn check is refused as invalid (400), not declined", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ card_number: "5111111111110002" }));
    expect(answer.status).toBe(400);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("4000000000000119 fails: status Fatal, no transaction_id, nothing collected", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ card_number: "4000000000000119" }));
    expect(answer.status).toBe(200);
    expect(answer.json.donation.status).toBe("Fatal");
    expect(answer.json.donation.transaction_id).toBeUndefined();
    expect(answer.json.donation.message).toEqual(expect.any(String));
    expect(await collected(ctx.sandbox)).toEqual([]);
    expect((await ctx.sandbox.transactions()).map((row) => row.status)).toEqual(["failed"]);
  });

  it("any other Luhn-valid number succeeds (Discover 6011111111111117)", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ card_number: "6011111111111117" }));
    expect(answer.json.donation.status).toBe("Success");
    expect((await collected(ctx.sandbox)).map((row) => row.brand)).toEqual(["discover"]);
  });

  it("a tokenized test card keeps its outcome: a token of 4000000000000002 is declined", async () => {
    const session = await login(ctx.sandbox);
    const token = await call(ctx.sandbox.url, "/api/v2/donations/create_payment_token", {
      authorization: auth(session, "session"),
      body: { card_number: "4000000000000002", cvv: "123", expiration_date: "12/2030" },
    });
    expect(token.status).toBe(200);
    const { card_number: _n, cvv: _c, expiration_date: _e, ...rest } = donation();
    const answer = await donate(ctx.sandbox, session, {
      ...rest,
      credit_card_token: token.json.credit_card_token,
    });
    expect(answer.json.donation.status).toBe("Error");
    expect(await collected(ctx.sandbox)).toEqual([]);
  });
});

describe("create_payment_token", () => {
  // The sandbox's own clock, so that which expiry is past does not depend on the day the suite runs.
  let today = new Date("2026-11-22T12:00:00Z");
  beforeEach(() => {
    today = new Date("2026-11-22T12:00:00Z");
  });
  const ctx = useSandbox({ now: () => today });
  const tokenize = async (card: Record<string, unknown>) => {
    const session = await login(ctx.sandbox);
    return call(ctx.sandbox.url, "/api/v2/donations/create_payment_token", {
      authorization: auth(session, "session"),
      body: card,
    });
  };

  it("a valid card → {credit_card_token, brand, last_4}, never the number or CVV", async () => {
    const answer = await tokenize({
      card_number: "4242 4242 4242 4242",
      cvv: "123",
      expiration_date: "11/2026",
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      credit_card_token: expect.stringMatching(/^tok_/),
      brand: "visa",
      last_4: "4242",
    });
    expect(answer.text).not.toContain("4242424242424242");
    expect(answer.text).not.toContain('"123"');
  });

  it("a Luhn-invalid number → 400 naming card_number", async () => {
    const answer = await tokenize({
      card_number: "4242424242424243",
      cvv: "123",
      expiration_date: "12/2030",
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("invalid_card");
    expect(Object.keys(answer.json.error.fields)).toEqual(["card_number"]);
  });

  it("a card is good through the last day of its expiry month, expired from the first of the next", async () => {
    const card = { card_number: "4242424242424242", cvv: "123", expiration_date: "11/2026" };
    today = new Date("2026-11-30T23:59:59Z");
    expect((await tokenize(card)).status).toBe(200);
    today = new Date("2026-12-01T00:00:00Z");
    const answer = await tokenize(card);
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields.expiration_date).toEqual(["The card has expired."]);
  });

  it("a past expiry (October 2026, today being November 2026) → 400 naming expiration_date", async () => {
    const answer = await tokenize({
      card_number: "4242424242424242",
      cvv: "123",
      expiration_date: "10/2026",
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields.expiration_date).toEqual(["The card has expired."]);
  });

  for (const expiry of ["12/30", "13/2030", "2030-12", "1/2030", ""]) {
    it(`an expiry not in MM/YYYY form (${JSON.stringify(expiry)}) → 400 naming expiration_date`, async () => {
      const answer = await tokenize({ card_number: "4242424242424242", cvv: "123", expiration_date: expiry });
      expect(answer.status).toBe(400);
      expect(answer.json.error.fields.expiration_date).toEqual(["The expiration date must be MM/YYYY."]);
    });
  }

  it("a 3-digit CVV on an American Express card → 400 (amex takes 4)", async () => {
    const answer = await tokenize({ card_number: "378282246310005", cvv: "123", expiration_date: "12/2030" });
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields.cvv[0]).toMatch(/4 digits/);
  });

  it("a 4-digit CVV on a Visa card → 400 (visa takes 3)", async () => {
    const answer = await tokenize({
      card_number: "4242424242424242",
      cvv: "1234",
      expiration_date: "12/2030",
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields.cvv[0]).toMatch(/3 digits/);
  });

  it("a 4-digit CVV on an American Express card is accepted", async () => {
    const answer = await tokenize({
      card_number: "378282246310005",
      cvv: "1234",
      expiration_date: "12/2030",
    });
    expect(answer.json).toMatchObject({ brand: "amex", last_4: "0005" });
  });

  it("a missing field → 400 naming it", async () => {
    const answer = await tokenize({ card_number: "4242424242424242", cvv: "123" });
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields).toHaveProperty("expiration_date");
  });

  it("a token belongs to its account: River Trust cannot spend Hope Shelter's token", async () => {
    const hope = await tokenize({ card_number: "4242424242424242", cvv: "123", expiration_date: "12/2030" });
    const river = await login(ctx.sandbox, "river");
    const answer = await donate(ctx.sandbox, river, {
      shortcode_string: "71777",
      keyword_string: "RIVER",
      amount: "5",
      credit_card_token: hope.json.credit_card_token,
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("invalid_card");
    expect(await ctx.sandbox.transactions({}, "river")).toEqual([]);
  });
});
