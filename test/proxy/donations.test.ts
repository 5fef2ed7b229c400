// POST /v1/donations through the proxy to the sandbox, asserting money in the sandbox's own report.
import { describe, expect, it } from "vitest";
import { DonationSuccessSchema } from "../../contract/api";
import { readDedication } from "../../contract/dedication";
import {
  CONSENT_TEXT,
  CARDS,
  collected,
  donate,
  donationBody,
  readStore,
  tokenize,
  upstreamCalls,
  useStack,
  DONATE_PATH,
} from "./support";

describe("POST /v1/donations", () => {
  const ctx = useStack();

  it("charges the donation and answers 200 with the charged total", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { amount: "25" }));
    expect(reply.status).toBe(200);
    expect(DonationSuccessSchema.safeParse(reply.json).success).toBe(true);
    expect(reply.json.donation).toMatchObject({
      status: "Success",
      amount: "25.00",
      fee_amount: "0.00",
      recurring_frequency: null,
    });
    const rows = await collected(ctx.sandbox);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      transaction_id: reply.json.donation.transaction_id,
      amount: "25.00",
      fee_amount: "0.00",
      keyword: "HOPE",
      shortcode: "71777",
      source: expect.stringMatching(/^api_via_givekit\.gk_[0-9a-f]{20}$/),
      last_4: "4242",
    });
    expect(reply.json.donation.message).toContain(rows[0]!.authorization_code as string);
  });

  it("cover_fee adds the campaign's fee rate (HOPE 3 %), computed in cents", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { amount: "25.00", cover_fee: true }));
    expect(reply.json.donation).toMatchObject({ amount: "25.75", fee_amount: "0.75" });
    const [row] = await collected(ctx.sandbox);
    expect(row).toMatchObject({ amount: "25.75", donation_amount: "25.00", fee_amount: "0.75" });
  });

  it("cover_fee on MEALS uses MEALS's rate (2.9 %), rounded half up", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(
      ctx.api,
      donationBody(token, { shortcode: "41444", keyword: "MEALS", amount: "10.50", cover_fee: true }),
    );
    // 10.50 × 0.029 = 0.3045 → 0.30
    expect(reply.json.donation).toMatchObject({ amount: "10.80", fee_amount: "0.30" });
    const [row] = await collected(ctx.sandbox, "MEALS");
    expect(row).toMatchObject({ amount: "10.80", fee_amount: "0.30" });
  });

  it("a client cannot send its own fee rate", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { fee_rate: "0" }));
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toHaveProperty("fee_rate");
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(0);
  });

  it("a monthly gift is recorded as monthly", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { recurring_frequency: "monthly" }));
    expect(reply.json.donation.recurring_frequency).toBe("monthly");
    expect((await collected(ctx.sandbox))[0]?.recurring_frequency).toBe("monthly");
  });

  it("a frequency the campaign does not offer → 400, nothing sent", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { recurring_frequency: "quarterly" }));
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe("validation_failed");
    expect(reply.json.errors).toHaveProperty("recurring_frequency");
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(0);
  });

  it("the campaign may be named by event_id + event_type", async () => {
    const token = await tokenize(ctx.api);
    const body = donationBody(token, { event_id: "2026-meals", event_type: "campaign" });
    delete body.shortcode;
    delete body.keyword;
    expect((await donate(ctx.api, body)).status).toBe(200);
    expect((await collected(ctx.sandbox)).map((row) => row.keyword)).toEqual(["MEALS"]);
  });

  it("a keyword and an event naming different campaigns → 400", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(
      ctx.api,
      donationBody(token, { event_id: "2026-meals", event_type: "campaign" }),
    );
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toHaveProperty("event_id");
    expect(await collected(ctx.sandbox)).toEqual([]);
  });

  it("keywords match without regard to case", async () => {
    const token = await tokenize(ctx.api);
    expect((await donate(ctx.api, donationBody(token, { keyword: "hope" }))).status).toBe(200);
    expect((await collected(ctx.sandbox)).map((row) => row.keyword)).toEqual(["HOPE"]);
  });

  it("only configured campaigns are served: RUN@71777 exists upstream but → 404 campaign_not_served", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { keyword: "RUN" }));
    expect(reply.status).toBe(404);
    expect(reply.json.code).toBe("campaign_not_served");
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(0);
  });

  it.each(["4.99", "10000.01"])(
    "amount %s is outside HOPE's 5.00 to 10000.00 → 400, nothing sent",
    async (amount) => {
      const token = await tokenize(ctx.api);
      const reply = await donate(ctx.api, donationBody(token, { amount }));
      expect(reply.status).toBe(400);
      expect(reply.json.errors.amount[0]).toContain("between 5.00 and 10000.00");
      expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(0);
    },
  );

  it.each([
    ["5", "5.00"],
    ["10000.00", "10000.00"],
  ])("amount %s, at HOPE's bounds, is charged as %s", async (amount, charged) => {
    const token = await tokenize(ctx.api);
    expect((await donate(ctx.api, donationBody(token, { amount }))).status).toBe(200);
    expect((await collected(ctx.sandbox)).map((row) => row.donation_amount)).toEqual([charged]);
  });

  it("a declined card → 402 card_declined with a generic message; nothing collected", async () => {
    const token = await tokenize(ctx.api, CARDS.declined);
    const reply = await donate(ctx.api, donationBody(token));
    expect(reply.status).toBe(402);
    expect(reply.headers.get("content-type")).toBe("application/problem+json");
    expect(reply.json).toMatchObject({ code: "card_declined", status: 402 });
    expect(await collected(ctx.sandbox)).toEqual([]);
    expect((await ctx.sandbox.transactions({ status: "declined" })).length).toBe(1);
  });

  it("a Fatal answer → 502 payment_failed; nothing collected", async () => {
    const token = await tokenize(ctx.api, CARDS.fatal);
    const reply = await donate(ctx.api, donationBody(token));
    expect(reply.status).toBe(502);
    expect(reply.json.code).toBe("payment_failed");
    expect(await collected(ctx.sandbox)).toEqual([]);
    expect((await ctx.sandbox.transactions({ status: "failed" })).length).toBe(1);
  });

  it("a payment token the upstream does not know → 400 naming credit_card_token; nothing charged", async () => {
    const reply = await donate(ctx.api, donationBody("tok_000000000000000000000000"));
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toHaveProperty("credit_card_token");
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("passes the donor, the address and the options through, the phone normalized to 10 digits", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(
      ctx.api,
      donationBody(token, {
        donor: {
          full_name: "Maria de la Cruz",
          first_name: "Ignored",
          last_name: "Ignored",
          email: "maria@example.org",
          phone: "+1 (555) 010-1234",
          street_address: "1 Main St",
          city: "Springfield",
          state: "IL",
          zip: "62701",
          country: "US",
        },
        anonymous: true,
        memo: "In memory of Rex",
        sms_opt_in_accepted: true,
        // An SMS opt-in carries the disclosure the donor saw (test/proxy/donation-sms-consent.test.ts).
        sms_consent_text: CONSENT_TEXT,
        pledge_wall: true,
        form_id: "form-hope-gala",
      }),
    );
    expect(reply.status).toBe(200);
    const [row] = await collected(ctx.sandbox);
    expect(row).toMatchObject({
      first_name: "Maria de la",
      last_name: "Cruz",
      email: "maria@example.org",
      phone: "5550101234",
      street_address: "1 Main St",
      city: "Springfield",
      state: "IL",
      zip: "62701",
      country: "US",
      anonymous: true,
      memo: "In memory of Rex",
      sms_opt_in_accepted: true,
      pledge_wall: true,
      form_id: "form-hope-gala",
    });
  });

  it("records the attempt with its outcome, and no card token", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { cover_fee: true, peer_fundraiser_id: "101" }));
    const store = readStore(ctx.proxy.dataDir);
    expect(store.attempts).toHaveLength(1);
    expect(store.attempts[0]).toMatchObject({
      state: "succeeded",
      upstream_status: 200,
      transaction_id: reply.json.donation.transaction_id,
      amount: "25.75",
      fee_amount: "0.75",
      keyword: "HOPE",
      peer_fundraiser_id: "101",
    });
    expect(JSON.stringify(store)).not.toContain(token);
  });

  it("a dedication reaches the sandbox in the memo, after the donor's message, in the form readDedication reads", async () => {
    const token = await tokenize(ctx.api);
    const dedication = { kind: "memory", name: "Jane Doe", notify_email: "jane@example.org" } as const;
    const reply = await donate(
      ctx.api,
      donationBody(token, { amount: "40.00", memo: "For the winter beds", dedication }),
    );
    expect(reply.status).toBe(200);
    const [row] = await collected(ctx.sandbox);
    expect(row).toMatchObject({ amount: "40.00", keyword: "HOPE" });
    expect(row!.memo).toBe("For the winter beds\n[Dedication] In memory of Jane Doe <jane@example.org>");
    expect(readDedication(row!.memo as string)).toEqual({ message: "For the winter beds", dedication });
  });

  it.each([
    [{ kind: "honor", name: "" }, "dedication.name"],
    [{ kind: "honor", name: "<script>" }, "dedication.name"],
    [{ kind: "in-lieu", name: "Jane" }, "dedication.kind"],
    [{ kind: "honor", name: "Jane", notify_email: "jane@" }, "dedication.notify_email"],
    [{ kind: "honor", name: "Jane", notify_email: `${"j".repeat(600)}@example.org` }, "dedication.name"],
  ])("a bad dedication %j: 400 naming %s, nothing charged", async (dedication, field) => {
    const token = await tokenize(ctx.api);
    const reply = await donate(
      ctx.api,
      donationBody(token, { memo: "m".repeat(500), dedication: dedication as never }),
    );
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe("validation_failed");
    expect(Object.keys(reply.json.errors)).toContain(field);
    expect(await collected(ctx.sandbox)).toHaveLength(0);
  });
});
