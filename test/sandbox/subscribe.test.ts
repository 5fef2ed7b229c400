// 2.3, 2.4, 4.5 and 8: subscribe.json, checked in the sandbox's own subscription records.
import { describe, expect, it } from "vitest";
import { subscribe, useSandbox } from "./support";

describe("subscribe", () => {
  const ctx = useSandbox();

  it("4.5 rule 3: valid list subscription → status 200 with a message, and the number is subscribed", async () => {
    const answer = await subscribe(ctx.sandbox, {
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      firstname: "Ada",
      lastname: "Lovelace",
    });
    expect(answer.status).toBe(200);
    expect(answer.json.subscription).toMatchObject({
      status: 200,
      message: expect.stringContaining("Hope Alerts"),
    });
    expect(answer.json.subscription.error).toBeUndefined();
    expect(await ctx.sandbox.subscriptions()).toEqual([
      {
        account: "Hope Shelter",
        mobilenumber: "5550101234",
        list: "Hope Alerts",
        keyword: null,
        shortcode: null,
        firstname: "Ada",
        lastname: "Lovelace",
        created_at: expect.any(String),
      },
    ]);
  });

  it("4.5 rule 3: valid keyword + shortcode subscription → 200 and subscribed to the keyword", async () => {
    const answer = await subscribe(ctx.sandbox, {
      mobilenumber: "5550101234",
      keyword: "meals",
      shortcode: "41444",
    });
    expect(answer.json.subscription.status).toBe(200);
    expect(await ctx.sandbox.subscriptions()).toEqual([
      expect.objectContaining({ list: null, keyword: "MEALS", shortcode: "41444" }),
    ]);
  });

  it("4.5 rule 1: neither list nor keyword+shortcode → 400, nothing subscribed", async () => {
    const answer = await subscribe(ctx.sandbox, { mobilenumber: "5550101234" });
    expect(answer.status).toBe(400);
    expect(answer.json.subscription).toMatchObject({ status: 400, error: { code: "target_required" } });
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });

  it("4.5 rule 1: a keyword without its shortcode → 400, nothing subscribed", async () => {
    const answer = await subscribe(ctx.sandbox, { mobilenumber: "5550101234", keyword: "HOPE" });
    expect(answer.status).toBe(400);
    expect(answer.json.subscription.error.fields).toHaveProperty("shortcode");
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });

  it("4.5 rule 1: a shortcode without a keyword → 400, nothing subscribed", async () => {
    const answer = await subscribe(ctx.sandbox, { mobilenumber: "5550101234", shortcode: "71777" });
    expect(answer.status).toBe(400);
    expect(answer.json.subscription.error.fields).toHaveProperty("keyword");
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });

  it("4.5 rule 2: list and keyword+shortcode both sent → the list is used", async () => {
    const answer = await subscribe(ctx.sandbox, {
      mobilenumber: "5550101234",
      list: "Volunteers",
      keyword: "HOPE",
      shortcode: "71777",
    });
    expect(answer.json.subscription.status).toBe(200);
    expect(await ctx.sandbox.subscriptions()).toEqual([
      expect.objectContaining({ list: "Volunteers", keyword: null, shortcode: null }),
    ]);
  });

  it("4.5 rule 2: the list wins even when the keyword does not exist", async () => {
    const answer = await subscribe(ctx.sandbox, {
      mobilenumber: "5550101234",
      list: "Volunteers",
      keyword: "NOPE",
      shortcode: "99999",
    });
    expect(answer.status).toBe(200);
    expect(await ctx.sandbox.subscriptions()).toHaveLength(1);
  });

  it("a list the account does not have → 404, nothing subscribed (even with a valid keyword)", async () => {
    const answer = await subscribe(ctx.sandbox, {
      mobilenumber: "5550101234",
      list: "River News",
      keyword: "HOPE",
      shortcode: "71777",
    });
    expect(answer.status).toBe(404);
    expect(answer.json.subscription).toMatchObject({ status: 404, error: { code: "list_not_found" } });
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });

  it("a keyword the account does not have → 404, nothing subscribed", async () => {
    const answer = await subscribe(ctx.sandbox, {
      mobilenumber: "5550101234",
      keyword: "RIVER",
      shortcode: "71777",
    });
    expect(answer.status).toBe(404);
    expect(answer.json.subscription.error.code).toBe("keyword_not_found");
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });

  it("2.3 / 8: an 11-digit number starting with 1 is accepted (stored as its 10 digits)", async () => {
    const answer = await subscribe(ctx.sandbox, { mobilenumber: "15550101234", list: "Hope Alerts" });
    expect(answer.status).toBe(200);
    expect((await ctx.sandbox.subscriptions()).map((row) => row.mobilenumber)).toEqual(["5550101234"]);
  });

  for (const [name, number] of [
    ["9 digits", "555010123"],
    ["12 digits", "155501012345"],
    ["11 digits not starting with 1", "25550101234"],
    ["punctuation", "(555) 010-1234"],
    ["a plus sign", "+15550101234"],
    ["letters", "555010ABCD"],
    ["empty", ""],
  ] as const) {
    it(`2.3 / 8: a mobile number with ${name} → 400 naming mobilenumber, nothing subscribed`, async () => {
      const answer = await subscribe(ctx.sandbox, { mobilenumber: number, list: "Hope Alerts" });
      expect(answer.status).toBe(400);
      expect(answer.json.subscription.error.fields).toHaveProperty("mobilenumber");
      expect(await ctx.sandbox.subscriptions()).toEqual([]);
    });
  }

  it("a missing mobilenumber → 400, nothing subscribed", async () => {
    const answer = await subscribe(ctx.sandbox, { list: "Hope Alerts" });
    expect(answer.status).toBe(400);
    expect(answer.json.subscription.error.fields).toHaveProperty("mobilenumber");
  });

  it("the same number on the same target again → 200, already_subscribed, one record", async () => {
    await subscribe(ctx.sandbox, { mobilenumber: "5550101234", list: "Hope Alerts", firstname: "Ada" });
    const again = await subscribe(ctx.sandbox, {
      mobilenumber: "15550101234",
      list: "hope alerts",
      firstname: "Bea",
    });
    expect(again.status).toBe(200);
    expect(again.json.subscription).toMatchObject({ status: 200, already_subscribed: true });
    expect(again.json.subscription.message).toMatch(/already subscribed/);
    const rows = await ctx.sandbox.subscriptions();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.firstname).toBe("Ada");
  });

  it("the same number on another target is a second subscription", async () => {
    await subscribe(ctx.sandbox, { mobilenumber: "5550101234", list: "Hope Alerts" });
    await subscribe(ctx.sandbox, { mobilenumber: "5550101234", list: "Volunteers" });
    await subscribe(ctx.sandbox, { mobilenumber: "5550101234", keyword: "HOPE", shortcode: "71777" });
    expect((await ctx.sandbox.subscriptions()).map((row) => row.list ?? row.keyword)).toEqual([
      "Hope Alerts",
      "Volunteers",
      "HOPE",
    ]);
  });

  it("unknown fields → 400 naming them, nothing subscribed", async () => {
    const answer = await subscribe(ctx.sandbox, {
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      consent: true,
    });
    expect(answer.status).toBe(400);
    expect(answer.json.subscription.error.fields).toHaveProperty("consent");
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });
});
