// 2.1, 2.2, 4.4 and 7: the donate operation's fields, rules and results, checked in the report.
import { describe, expect, it } from "vitest";
import { TransactionRowSchema } from "../../contract/upstream";
import { auth, call, collected, donate, donation, GOOD_CARD, login, useSandbox } from "./support";
import { FUTURE_EXPIRY } from "../helpers/cards";

describe("donate", () => {
  const ctx = useSandbox();

  describe("4.4 rule 1: the target", () => {
    it("shortcode_string + keyword_string names the keyword", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ shortcode_string: "71777", keyword_string: "run" }));
      expect((await collected(ctx.sandbox)).map((row) => [row.shortcode, row.keyword])).toEqual([
        ["71777", "RUN"],
      ]);
    });

    it("event_id + event_type replace shortcode_string/keyword_string", async () => {
      const session = await login(ctx.sandbox);
      const { shortcode_string: _s, keyword_string: _k, ...rest } = donation();
      const answer = await donate(ctx.sandbox, session, {
        ...rest,
        event_id: "2026-meals",
        event_type: "campaign",
      });
      expect(answer.json.donation.status).toBe("Success");
      expect((await collected(ctx.sandbox)).map((row) => [row.shortcode, row.keyword])).toEqual([
        ["41444", "MEALS"],
      ]);
    });

    it("event_id without event_type → 400, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation({ event_id: "2026-meals" }));
      expect(answer.status).toBe(400);
      expect(answer.json.error.fields).toHaveProperty("event_type");
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });

    it("no target at all → 400, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, { amount: "10", ...GOOD_CARD });
      expect(answer.status).toBe(400);
      expect(answer.json.error.fields).toHaveProperty("shortcode_string");
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });

    it("a keyword the account does not have → 404 keyword_not_found, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation({ keyword_string: "NOPE" }));
      expect(answer.status).toBe(404);
      expect(answer.json.error.code).toBe("keyword_not_found");
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });
  });

  describe("4.4 rule 2 and section 8: amount greater than 0", () => {
    for (const amount of ["0", "0.00"]) {
      it(`amount "${amount}" → 400 naming amount, nothing charged`, async () => {
        const session = await login(ctx.sandbox);
        const answer = await donate(ctx.sandbox, session, donation({ amount }));
        expect(answer.status).toBe(400);
        expect(answer.json.error.fields).toHaveProperty("amount");
        expect(await ctx.sandbox.transactions()).toEqual([]);
      });
    }
    for (const amount of ["-5", "1e3", "25.001", "abc", 25]) {
      it(`amount ${JSON.stringify(amount)} is not a decimal string → 400, nothing charged`, async () => {
        const session = await login(ctx.sandbox);
        const answer = await donate(ctx.sandbox, session, donation({ amount }));
        expect(answer.status).toBe(400);
        expect(answer.json.error.fields).toHaveProperty("amount");
        expect(await ctx.sandbox.transactions()).toEqual([]);
      });
    }
    it("the smallest amount, 0.01, is charged", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ amount: "0.01" }));
      expect((await collected(ctx.sandbox)).map((row) => row.amount)).toEqual(["0.01"]);
    });
  });

  describe("4.4 rule 3: card as number/cvv/expiry or as credit_card_token", () => {
    it("card_number, cvv and expiration_date → charged, only the last 4 kept", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation({ card_number: "5555555555554444" }));
      expect(answer.json.donation.status).toBe("Success");
      expect(answer.text).not.toContain("5555555555554444");
      const rows = await collected(ctx.sandbox);
      expect(rows[0]).toMatchObject({ last_4: "4444", brand: "mastercard" });
      expect(JSON.stringify(rows)).not.toContain("5555555555554444");
    });

    it("credit_card_token from create_payment_token → charged", async () => {
      const session = await login(ctx.sandbox);
      const tokenAnswer = await call(ctx.sandbox.url, "/api/v2/donations/create_payment_token", {
        authorization: auth(session, "session"),
        body: { card_number: "378282246310005", cvv: "1234", expiration_date: FUTURE_EXPIRY },
      });
      const { card_number: _n, cvv: _c, expiration_date: _e, ...rest } = donation();
      const answer = await donate(ctx.sandbox, session, {
        ...rest,
        credit_card_token: tokenAnswer.json.credit_card_token,
      });
      expect(answer.json.donation.status).toBe("Success");
      expect((await collected(ctx.sandbox))[0]).toMatchObject({ last_4: "0005", brand: "amex" });
    });

    it("neither a card nor a token → 400 card_required, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, {
        shortcode_string: "71777",
        keyword_string: "HOPE",
        amount: "5",
      });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe("card_required");
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });

    it("a card missing its cvv → 400 naming cvv, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const { cvv: _cvv, ...body } = donation();
      const answer = await donate(ctx.sandbox, session, body);
      expect(answer.status).toBe(400);
      expect(answer.json.error.fields).toHaveProperty("cvv");
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });

    it("both a token and card details → 400, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation({ credit_card_token: "tok_x" }));
      expect(answer.status).toBe(400);
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });

    it("an unknown credit_card_token → 400 invalid_card, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const { card_number: _n, cvv: _c, expiration_date: _e, ...rest } = donation();
      const answer = await donate(ctx.sandbox, session, { ...rest, credit_card_token: "tok_000000" });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe("invalid_card");
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });

    it("an invalid card given inline (Luhn, past expiry) → 400 naming each field, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(
        ctx.sandbox,
        session,
        donation({ card_number: "4242424242424241", expiration_date: "10/2026" }),
      );
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.json.error.fields).toSorted()).toEqual(["card_number", "expiration_date"]);
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });
  });

  describe("4.4 rule 4: full_name overrides first_name and last_name", () => {
    it("full_name is split: the last word is the last name", async () => {
      const session = await login(ctx.sandbox);
      await donate(
        ctx.sandbox,
        session,
        donation({ full_name: "  Mary  Ann Smith ", first_name: "Ignored", last_name: "Also" }),
      );
      expect((await collected(ctx.sandbox))[0]).toMatchObject({ first_name: "Mary Ann", last_name: "Smith" });
    });

    it("first_name and last_name are used when no full_name is sent", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ first_name: "Ada", last_name: "Lovelace" }));
      expect((await collected(ctx.sandbox))[0]).toMatchObject({ first_name: "Ada", last_name: "Lovelace" });
    });

    it("a one-word full_name is a first name only", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ full_name: "Cher" }));
      expect((await collected(ctx.sandbox))[0]).toMatchObject({ first_name: "Cher", last_name: null });
    });
  });

  describe("2.1 fields", () => {
    it("form_id defaults to the keyword's default form", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation());
      expect((await collected(ctx.sandbox))[0]!.form_id).toBe("form-hope-walk");
    });

    it("form_id names another form of the keyword", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ form_id: "form-hope-gala" }));
      expect((await collected(ctx.sandbox))[0]!.form_id).toBe("form-hope-gala");
    });

    it("a form_id the keyword does not have → 400 form_not_found, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation({ form_id: "form-meals" }));
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe("form_not_found");
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });

    it("fee_rate is added on top of the amount (3 % of 25.00 → 25.75 charged)", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation({ amount: "25.00", fee_rate: 0.03 }));
      expect(answer.json.donation.message).toContain("25.75");
      expect((await collected(ctx.sandbox))[0]).toMatchObject({
        amount: "25.75",
        donation_amount: "25.00",
        fee_amount: "0.75",
      });
    });

    it("fee_rate rounds half up to the cent (2.9 % of 10.50 = 0.3045 → 0.30; 4.2 % of 25.00 = 1.05)", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ amount: "10.50", fee_rate: 0.029 }));
      await donate(ctx.sandbox, session, donation({ amount: "25.00", fee_rate: 0.042 }));
      expect((await collected(ctx.sandbox)).map((row) => [row.amount, row.fee_amount])).toEqual([
        ["10.80", "0.30"],
        ["26.05", "1.05"],
      ]);
    });

    it("without fee_rate the amount is charged as is", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ amount: "19.99" }));
      expect((await collected(ctx.sandbox))[0]).toMatchObject({ amount: "19.99", fee_amount: "0.00" });
    });

    it("source is recorded as api_via_<source>", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ source: "givekit" }));
      expect((await collected(ctx.sandbox))[0]!.source).toBe("api_via_givekit");
    });

    it("without source the transaction source is api", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation());
      expect((await collected(ctx.sandbox))[0]!.source).toBe("api");
    });

    it("recurring_frequency monthly makes a recurring donation", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ recurring_frequency: "monthly" }));
      const rows = await ctx.sandbox.transactions();
      expect(rows[0]).toMatchObject({
        recurring_frequency: "monthly",
        transaction_type: "recurring_donation",
      });
    });

    it("an unknown recurring_frequency → 400, nothing charged", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation({ recurring_frequency: "hourly" }));
      expect(answer.status).toBe(400);
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });

    it("anonymous, memo, sms_opt_in_accepted, pledge_wall, email, phone and address are kept with the donation", async () => {
      const session = await login(ctx.sandbox);
      await donate(
        ctx.sandbox,
        session,
        donation({
          anonymous: true,
          memo: "In memory of Rex",
          sms_opt_in_accepted: true,
          pledge_wall: "true",
          email: "ada@example.org",
          phone: "5550101234",
          street_address: "1 Main St",
          city: "Springfield",
          state: "IL",
          zip: "62701",
          country: "US",
        }),
      );
      expect((await collected(ctx.sandbox))[0]).toMatchObject({
        anonymous: true,
        memo: "In memory of Rex",
        sms_opt_in_accepted: true,
        pledge_wall: true,
        email: "ada@example.org",
        phone: "5550101234",
        street_address: "1 Main St",
        city: "Springfield",
        state: "IL",
        zip: "62701",
        postal_code: null,
        country: "US",
      });
    });

    it("anonymous defaults to false and sms_opt_in_accepted to false", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation());
      expect((await collected(ctx.sandbox))[0]).toMatchObject({
        anonymous: false,
        sms_opt_in_accepted: false,
        street_address: null,
        city: null,
        zip: null,
        country: null,
      });
    });

    it("donate.json is the same operation", async () => {
      const session = await login(ctx.sandbox);
      const answer = await call(ctx.sandbox.url, "/api/v2/donations/donate.json", {
        authorization: auth(session, "session"),
        body: donation({ amount: "7.00" }),
      });
      expect(answer.json.donation.status).toBe("Success");
      expect((await collected(ctx.sandbox)).map((row) => row.amount)).toEqual(["7.00"]);
    });
  });

  describe("2.2 and 7: results", () => {
    it("Success: a message with the authorization code and a transaction_id that is in the report", async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation());
      expect(answer.status).toBe(200);
      expect(answer.json.donation.status).toBe("Success");
      const rows = await collected(ctx.sandbox);
      expect(rows).toHaveLength(1);
      expect(answer.json.donation.transaction_id).toBe(rows[0]!.transaction_id);
      expect(answer.json.donation.message).toContain(`Authorization code: ${rows[0]!.authorization_code}`);
      expect(String(rows[0]!.authorization_code)).toMatch(/^[A-Z0-9]{6}$/);
    });

    it("each report row has every field the contract's TransactionRowSchema names", async () => {
      const session = await login(ctx.sandbox);
      await donate(ctx.sandbox, session, donation({ peer_fundraiser_id: "101" }));
      const [row] = await ctx.sandbox.transactions();
      expect(TransactionRowSchema.safeParse(row).success).toBe(true);
    });

    it("transaction ids are unique per donation", async () => {
      const session = await login(ctx.sandbox);
      const first = await donate(ctx.sandbox, session, donation());
      const second = await donate(ctx.sandbox, session, donation());
      expect(first.json.donation.transaction_id).not.toBe(second.json.donation.transaction_id);
      expect(await collected(ctx.sandbox)).toHaveLength(2);
    });
  });
});
