// GET /api/v2/fundraisers and /api/v2/teams: filters and totals raised.
import { describe, expect, it } from "vitest";
import { auth, call, donate, donation, login, useSandbox } from "./support";

describe("fundraisers and teams", () => {
  const ctx = useSandbox();
  const get = async (path: string, account: "hope" | "river" = "hope") =>
    call(ctx.sandbox.url, path, {
      method: "GET",
      authorization: auth(await login(ctx.sandbox, account), "session"),
    });

  it("fundraisers filtered by shortcode + keyword: the keyword's fundraisers and its flagged root", async () => {
    const answer = await get("/api/v2/fundraisers?shortcode=71777&keyword=HOPE");
    expect(answer.status).toBe(200);
    expect(answer.json.fundraisers.map((f: { id: string }) => f.id)).toEqual([
      "npo-kw-hope",
      "101",
      "102",
      "103",
      "104",
    ]);
    expect(answer.json.fundraisers[1]).toEqual({
      id: "101",
      name: "Ana Ruiz",
      keyword_id: "kw-hope",
      shortcode: "71777",
      keyword: "HOPE",
      team_id: "11",
      is_root: false,
      hidden: false,
      total_raised: "0.00",
      donation_count: 0,
    });
  });

  it("fundraisers filtered by keyword_id", async () => {
    const answer = await get("/api/v2/fundraisers?keyword_id=kw-run");
    expect(answer.json.fundraisers.map((f: { id: string }) => f.id)).toEqual(["npo-kw-run", "105"]);
  });

  it("fundraisers filtered by name (q, without case)", async () => {
    const answer = await get("/api/v2/fundraisers?shortcode=71777&keyword=HOPE&q=PARK");
    expect(answer.json.fundraisers.map((f: { name: string }) => f.name)).toEqual(["Chloe Park"]);
  });

  it("a keyword without peer fundraising has no fundraisers", async () => {
    const answer = await get("/api/v2/fundraisers?shortcode=41444&keyword=MEALS");
    expect(answer.json.fundraisers).toEqual([]);
  });

  it("a keyword the account does not have → 404", async () => {
    expect((await get("/api/v2/fundraisers?shortcode=71777&keyword=RIVER")).status).toBe(404);
    expect((await get("/api/v2/teams?keyword_id=kw-river")).status).toBe(404);
  });

  it("keyword without shortcode, or an unknown parameter → 400", async () => {
    expect((await get("/api/v2/fundraisers?keyword=HOPE")).status).toBe(400);
    const unknown = await get("/api/v2/teams?campaign=HOPE");
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.fields).toHaveProperty("campaign");
  });

  it("teams filtered by shortcode + keyword, with captains and member counts", async () => {
    const answer = await get("/api/v2/teams?shortcode=71777&keyword=HOPE");
    expect(
      answer.json.peer_fundraising_teams.map(
        (t: { id: string; captain_id: string | null; member_count: number }) => [
          t.id,
          t.captain_id,
          t.member_count,
        ],
      ),
    ).toEqual([
      ["11", "101", 2],
      ["12", null, 1],
      ["13", null, 0],
    ]);
    expect(answer.json.peer_fundraising_teams[0]).toMatchObject({
      name: "Team Sunrise",
      campaign_keyword_id: "kw-hope",
      total_raised: "0.00",
      team_fundraising_goal: "2000.00",
    });
    // A team without a goal in the fixture has none.
    expect(answer.json.peer_fundraising_teams[1]).toMatchObject({
      name: "Night Owls",
      team_fundraising_goal: null,
    });
  });

  it("totals raised count collected donations only, fees excluded", async () => {
    const session = await login(ctx.sandbox);
    await donate(
      ctx.sandbox,
      session,
      donation({ peer_fundraiser_id: "101", amount: "10.00", fee_rate: 0.03 }),
    );
    await donate(ctx.sandbox, session, donation({ peer_fundraiser_id: "102", amount: "5.50" }));
    await donate(
      ctx.sandbox,
      session,
      donation({ peer_fundraiser_id: "102", amount: "99", card_number: "4000000000000002" }),
    );
    await donate(ctx.sandbox, session, donation({ amount: "3.00" }));

    const fundraisers = await get("/api/v2/fundraisers?shortcode=71777&keyword=HOPE");
    const totals = Object.fromEntries(
      fundraisers.json.fundraisers.map((f: { id: string; total_raised: string }) => [f.id, f.total_raised]),
    );
    expect(totals).toEqual({
      "npo-kw-hope": "3.00",
      "101": "10.00",
      "102": "5.50",
      "103": "0.00",
      "104": "0.00",
    });
    const teams = await get("/api/v2/teams?shortcode=71777&keyword=HOPE");
    expect(teams.json.peer_fundraising_teams[0]).toMatchObject({
      id: "11",
      total_raised: "15.50",
      donation_count: 2,
    });
  });

  it("without a filter: all of the account's fundraisers and teams, none of another account's", async () => {
    const fundraisers = await get("/api/v2/fundraisers", "river");
    expect(fundraisers.json.fundraisers.map((f: { id: string }) => f.id)).toEqual(["npo-kw-river", "201"]);
    const teams = await get("/api/v2/teams", "river");
    expect(teams.json.peer_fundraising_teams.map((t: { id: string }) => t.id)).toEqual(["21"]);
  });
});
