// Account isolation: one account's tokens never see or use another account's records.
import { describe, expect, it } from "vitest";
import { DEMO } from "../helpers/sandbox";
import { auth, call, collected, donate, donation, login, subscribe, useSandbox } from "./support";

describe("account isolation", () => {
  const ctx = useSandbox();

  it("a River Trust session cannot donate to Hope Shelter's keyword (404), nothing charged anywhere", async () => {
    const river = await login(ctx.sandbox, "river");
    const answer = await donate(ctx.sandbox, river, donation());
    expect(answer.status).toBe(404);
    expect(await ctx.sandbox.transactions({}, "hope")).toEqual([]);
    expect(await ctx.sandbox.transactions({}, "river")).toEqual([]);
  });

  it("nor target it by Hope Shelter's event id", async () => {
    const river = await login(ctx.sandbox, "river");
    const { shortcode_string: _s, keyword_string: _k, ...rest } = donation();
    const answer = await donate(ctx.sandbox, river, {
      ...rest,
      event_id: "2026-hope-walk",
      event_type: "peer_campaign",
    });
    expect(answer.status).toBe(404);
    expect(await ctx.sandbox.transactions({}, "hope")).toEqual([]);
  });

  it("each account's report holds only its own transactions", async () => {
    await donate(ctx.sandbox, await login(ctx.sandbox, "hope"), donation({ amount: "11.00" }));
    await donate(
      ctx.sandbox,
      await login(ctx.sandbox, "river"),
      donation({ keyword_string: "RIVER", amount: "22.00", peer_fundraiser_id: "201" }),
    );
    expect((await collected(ctx.sandbox, "hope")).map((row) => row.amount)).toEqual(["11.00"]);
    expect(
      (await collected(ctx.sandbox, "river")).map((row) => [row.amount, row.peer_fundraiser_team_id]),
    ).toEqual([["22.00", "21"]]);
  });

  it("one account cannot read another account's report by id", async () => {
    const created = await call(ctx.sandbox.url, "/api/v2/reports/transactions.json", {
      method: "GET",
      authorization: auth(DEMO.hope.privateToken),
      body: {},
    });
    const stolen = await call(ctx.sandbox.url, "/api/v2/reports/results.json", {
      method: "GET",
      authorization: auth(DEMO.river.privateToken),
      body: { id: created.json.report.id },
    });
    expect(stolen.status).toBe(404);
  });

  it("River Trust's public token cannot subscribe to Hope Shelter's lists or keywords", async () => {
    expect(
      (await subscribe(ctx.sandbox, { mobilenumber: "5550101234", list: "Hope Alerts" }, "river")).status,
    ).toBe(404);
    expect(
      (
        await subscribe(
          ctx.sandbox,
          { mobilenumber: "5550101234", keyword: "HOPE", shortcode: "71777" },
          "river",
        )
      ).status,
    ).toBe(404);
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
    expect(
      (await subscribe(ctx.sandbox, { mobilenumber: "5550101234", list: "River News" }, "river")).status,
    ).toBe(200);
    expect((await ctx.sandbox.subscriptions()).map((row) => row.account)).toEqual(["River Trust"]);
  });

  it("fundraiser and team lists show only the caller's account", async () => {
    const hope = await login(ctx.sandbox, "hope");
    const fundraisers = await call(ctx.sandbox.url, "/api/v2/fundraisers", {
      method: "GET",
      authorization: auth(hope, "session"),
    });
    expect(fundraisers.json.fundraisers.map((f: { id: string }) => f.id)).not.toContain("201");
    const teams = await call(ctx.sandbox.url, "/api/v2/teams", {
      method: "GET",
      authorization: auth(hope, "session"),
    });
    expect(teams.json.peer_fundraising_teams.map((t: { id: string }) => t.id)).toEqual([
      "11",
      "12",
      "13",
      "14",
    ]);
  });
});
