// Section 4.3 of the service interface, every rule through the proxy, asserted in the sandbox's report.
import { describe, expect, it } from "vitest";
import { collected, donate, donationBody, tokenize, upstreamCalls, useStack, type Stack } from "./support";

async function give(ctx: Stack, fields: Record<string, unknown>) {
  const token = await tokenize(ctx.api);
  return donate(ctx.api, donationBody(token, fields));
}

async function credited(ctx: Stack) {
  const rows = await collected(ctx.sandbox);
  expect(rows).toHaveLength(1);
  return [rows[0]!.peer_fundraiser_id, rows[0]!.peer_fundraiser_team_id];
}

describe("4.3 attribution, through the proxy", () => {
  const ctx = useStack();

  it("rule 1: no peer → the keyword's root fundraiser (NPO Page), no team", async () => {
    expect((await give(ctx, {})).status).toBe(200);
    expect(await credited(ctx)).toEqual(["npo-kw-hope", null]);
  });

  it("rule 2: only a fundraiser → that fundraiser, and their team automatically", async () => {
    expect((await give(ctx, { peer_fundraiser_id: "102" })).status).toBe(200);
    expect(await credited(ctx)).toEqual(["102", "11"]);
  });

  it("rule 2: a fundraiser without a team → that fundraiser, no team", async () => {
    expect((await give(ctx, { peer_fundraiser_id: "103" })).status).toBe(200);
    expect(await credited(ctx)).toEqual(["103", null]);
  });

  it("rule 3: only a team → the team's captain", async () => {
    expect((await give(ctx, { peer_fundraiser_team_id: "11" })).status).toBe(200);
    expect(await credited(ctx)).toEqual(["101", "11"]);
  });

  it("rule 3: a team without a captain → a hidden captain, which the peer picker never shows", async () => {
    expect((await give(ctx, { peer_fundraiser_team_id: "12" })).status).toBe(200);
    const [fundraiser, team] = await credited(ctx);
    expect(team).toBe("12");
    expect(fundraiser).not.toBeNull();
    const peers = await ctx.api.get("/v1/campaigns/71777/HOPE/peers");
    const ids = peers.json.peers.map((peer: { id: string }) => peer.id);
    expect(ids).not.toContain(fundraiser);
    expect(ids).toContain("12");
  });

  it("rule 4: fundraiser and team disagree → the fundraiser wins and the team is re-derived", async () => {
    expect((await give(ctx, { peer_fundraiser_id: "104", peer_fundraiser_team_id: "11" })).status).toBe(200);
    expect(await credited(ctx)).toEqual(["104", "12"]);
  });

  it.each([
    ["an unknown fundraiser", { peer_fundraiser_id: "999" }, "peer_fundraiser_id"],
    ["a fundraiser of another keyword (RUN)", { peer_fundraiser_id: "105" }, "peer_fundraiser_id"],
    ["a fundraiser of another account (River Trust)", { peer_fundraiser_id: "201" }, "peer_fundraiser_id"],
    ["an unknown team", { peer_fundraiser_team_id: "99" }, "peer_fundraiser_team_id"],
    ["a team of another keyword (RUN)", { peer_fundraiser_team_id: "14" }, "peer_fundraiser_team_id"],
    ["a team of another account (River Trust)", { peer_fundraiser_team_id: "21" }, "peer_fundraiser_team_id"],
  ])("rule 5: %s → 400 invalid_peer, card not charged", async (_name, fields, field) => {
    const reply = await give(ctx, fields);
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe("invalid_peer");
    expect(reply.json.errors).toHaveProperty(field);
    // It did reach the upstream, which refused it: nothing in the report at all.
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/donations/donate")).toBe(1);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("rule 6: on a keyword without peer fundraising (MEALS) both are ignored, not rejected", async () => {
    const reply = await give(ctx, {
      shortcode: "41444",
      keyword: "MEALS",
      peer_fundraiser_id: "101",
      peer_fundraiser_team_id: "11",
    });
    expect(reply.status).toBe(200);
    expect(await credited(ctx)).toEqual([null, null]);
  });
});
