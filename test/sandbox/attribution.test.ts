// 4.3 Donate: attribution rules, each asserted through the sandbox's transactions report.
import { describe, expect, it } from "vitest";
import { auth, call, collected, donate, donation, login, useSandbox } from "./support";

describe("4.3 attribution rules", () => {
  const ctx = useSandbox();

  it("rule 1: neither id sent → credited to the keyword's root fundraiser (the NPO Page)", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ amount: "30.00" }));
    expect(answer.status).toBe(200);
    expect(answer.json.donation.status).toBe("Success");

    const rows = await collected(ctx.sandbox);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      amount: "30.00",
      peer_fundraiser_id: "npo-kw-hope",
      peer_fundraiser_team_id: null,
    });

    const list = await call(ctx.sandbox.url, "/api/v2/fundraisers?shortcode=71777&keyword=HOPE", {
      method: "GET",
      authorization: auth(session, "session"),
    });
    const root = list.json.fundraisers.find((fundraiser: { id: string }) => fundraiser.id === "npo-kw-hope");
    expect(root).toMatchObject({ name: "NPO Page", is_root: true, hidden: false, total_raised: "30.00" });
  });

  it("rule 1: every peer keyword has its own root fundraiser, created by the sandbox", async () => {
    const session = await login(ctx.sandbox);
    await donate(ctx.sandbox, session, donation({ keyword_string: "RUN", amount: "12.00" }));
    const rows = await collected(ctx.sandbox);
    expect(rows.map((row) => [row.keyword, row.peer_fundraiser_id])).toEqual([["RUN", "npo-kw-run"]]);
  });

  it("rule 2: only a fundraiser sent → credited to the fundraiser, and its team automatically", async () => {
    const session = await login(ctx.sandbox);
    await donate(ctx.sandbox, session, donation({ peer_fundraiser_id: "102", amount: "40.00" }));
    const rows = await collected(ctx.sandbox);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      amount: "40.00",
      peer_fundraiser_id: "102",
      peer_fundraiser_team_id: "11",
    });

    const teams = await call(ctx.sandbox.url, "/api/v2/teams?shortcode=71777&keyword=HOPE", {
      method: "GET",
      authorization: auth(session, "session"),
    });
    const team = teams.json.peer_fundraising_teams.find((candidate: { id: string }) => candidate.id === "11");
    expect(team.total_raised).toBe("40.00");
  });

  it("rule 2: a fundraiser without a team → credited to the fundraiser, no team", async () => {
    const session = await login(ctx.sandbox);
    await donate(ctx.sandbox, session, donation({ peer_fundraiser_id: 103 }));
    const rows = await collected(ctx.sandbox);
    expect(rows[0]).toMatchObject({ peer_fundraiser_id: "103", peer_fundraiser_team_id: null });
  });

  it("rule 3: only a team sent → credited to the team's captain", async () => {
    const session = await login(ctx.sandbox);
    await donate(ctx.sandbox, session, donation({ peer_fundraiser_team_id: "11", amount: "15.00" }));
    const rows = await collected(ctx.sandbox);
    expect(rows[0]).toMatchObject({
      amount: "15.00",
      peer_fundraiser_id: "101",
      peer_fundraiser_team_id: "11",
    });
  });

  it("rule 3: a team without a captain → a hidden captain record is created and the team accrues a total", async () => {
    const session = await login(ctx.sandbox);
    const before = await call(ctx.sandbox.url, "/api/v2/fundraisers?keyword_id=kw-hope", {
      method: "GET",
      authorization: auth(session, "session"),
    });
    expect(before.json.fundraisers.some((f: { hidden: boolean }) => f.hidden)).toBe(false);

    await donate(ctx.sandbox, session, donation({ peer_fundraiser_team_id: "13", amount: "20.00" }));
    await donate(ctx.sandbox, session, donation({ peer_fundraiser_team_id: "13", amount: "5.00" }));

    const rows = await collected(ctx.sandbox);
    expect(rows.map((row) => [row.amount, row.peer_fundraiser_id, row.peer_fundraiser_team_id])).toEqual([
      ["20.00", "captain-13", "13"],
      ["5.00", "captain-13", "13"],
    ]);
    const fundraisers = await call(ctx.sandbox.url, "/api/v2/fundraisers?keyword_id=kw-hope", {
      method: "GET",
      authorization: auth(session, "session"),
    });
    const hidden = fundraisers.json.fundraisers.filter((f: { hidden: boolean }) => f.hidden);
    expect(hidden).toEqual([
      expect.objectContaining({ id: "captain-13", team_id: "13", total_raised: "25.00" }),
    ]);
    const teams = await call(ctx.sandbox.url, "/api/v2/teams?keyword_id=kw-hope", {
      method: "GET",
      authorization: auth(session, "session"),
    });
    const team = teams.json.peer_fundraising_teams.find((candidate: { id: string }) => candidate.id === "13");
    expect(team).toMatchObject({
      captain_id: "captain-13",
      total_raised: "25.00",
      donation_count: 2,
      member_count: 0,
    });
  });

  it("rule 4: both sent and disagreeing → the fundraiser wins and the team is re-derived from it", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(
      ctx.sandbox,
      session,
      donation({ peer_fundraiser_id: "104", peer_fundraiser_team_id: "11", amount: "60.00" }),
    );
    expect(answer.status).toBe(200);
    expect(answer.json.donation.status).toBe("Success");
    const rows = await collected(ctx.sandbox);
    expect(rows[0]).toMatchObject({
      amount: "60.00",
      peer_fundraiser_id: "104",
      peer_fundraiser_team_id: "12",
    });
  });

  it("rule 4: both sent, the fundraiser has no team → no team is credited", async () => {
    const session = await login(ctx.sandbox);
    await donate(
      ctx.sandbox,
      session,
      donation({ peer_fundraiser_id: "103", peer_fundraiser_team_id: "11" }),
    );
    const rows = await collected(ctx.sandbox);
    expect(rows[0]).toMatchObject({ peer_fundraiser_id: "103", peer_fundraiser_team_id: null });
  });

  const rule5: [string, Record<string, unknown>, string][] = [
    ["an unknown fundraiser id", { peer_fundraiser_id: "999" }, "peer_fundraiser_id"],
    ["a fundraiser of another keyword", { peer_fundraiser_id: "105" }, "peer_fundraiser_id"],
    ["a fundraiser of another account", { peer_fundraiser_id: "201" }, "peer_fundraiser_id"],
    ["an unknown team id", { peer_fundraiser_team_id: "999" }, "peer_fundraiser_team_id"],
    ["a team of another keyword", { peer_fundraiser_team_id: "14" }, "peer_fundraiser_team_id"],
    ["a team of another account", { peer_fundraiser_team_id: "21" }, "peer_fundraiser_team_id"],
    [
      "a valid fundraiser with a team of another account",
      { peer_fundraiser_id: "101", peer_fundraiser_team_id: "21" },
      "peer_fundraiser_team_id",
    ],
  ];
  for (const [name, ids, field] of rule5) {
    it(`rule 5: ${name} → HTTP 400 and the card is not charged`, async () => {
      const session = await login(ctx.sandbox);
      const answer = await donate(ctx.sandbox, session, donation(ids));
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe("invalid_peer");
      expect(Object.keys(answer.json.error.fields)).toEqual([field]);
      expect(answer.json.donation.status).toBe("Error");
      expect(answer.json.donation.transaction_id).toBeUndefined();
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });
  }

  it("rule 5: the same request with a valid id is charged (the refusal is about the id)", async () => {
    const session = await login(ctx.sandbox);
    expect((await donate(ctx.sandbox, session, donation({ peer_fundraiser_id: "999" }))).status).toBe(400);
    expect((await donate(ctx.sandbox, session, donation({ peer_fundraiser_id: "101" }))).status).toBe(200);
    expect((await collected(ctx.sandbox)).map((row) => row.peer_fundraiser_id)).toEqual(["101"]);
  });

  it("rule 6: a keyword without peer fundraising silently ignores both ids, even unknown ones", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(
      ctx.sandbox,
      session,
      donation({
        shortcode_string: "41444",
        keyword_string: "MEALS",
        peer_fundraiser_id: "999",
        peer_fundraiser_team_id: "21",
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.json.donation.status).toBe("Success");
    const rows = await collected(ctx.sandbox);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      keyword: "MEALS",
      peer_fundraiser_id: null,
      peer_fundraiser_team_id: null,
    });
  });

  it("a declined donation credits nobody's total", async () => {
    const session = await login(ctx.sandbox);
    await donate(
      ctx.sandbox,
      session,
      donation({ peer_fundraiser_id: "101", card_number: "4000000000000002" }),
    );
    const teams = await call(ctx.sandbox.url, "/api/v2/teams?shortcode=71777&keyword=HOPE", {
      method: "GET",
      authorization: auth(session, "session"),
    });
    expect(
      teams.json.peer_fundraising_teams.map((team: { total_raised: string }) => team.total_raised),
    ).toEqual(["0.00", "0.00", "0.00"]);
    expect(await collected(ctx.sandbox)).toEqual([]);
    expect(
      (await ctx.sandbox.transactions({ status: "declined" })).map((row) => row.peer_fundraiser_id),
    ).toEqual(["101"]);
  });
});
