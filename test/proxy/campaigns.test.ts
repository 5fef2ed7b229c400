// GET /v1/health, /v1/campaigns/{shortcode}/{keyword} and …/peers, and the answers to wrong paths.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CampaignResponseSchema, PeersResponseSchema, type Peer } from "../../contract/api";
import { fromCents, toCents } from "../../contract/money";
import { DEFAULT_CAMPAIGNS_PATH } from "../../proxy/config";
import { CARDS, collected, donate, donationBody, tokenize, upstreamCalls, useStack } from "./support";

const demo = JSON.parse(readFileSync(DEFAULT_CAMPAIGNS_PATH, "utf8")) as {
  campaigns: Record<string, unknown>[];
};

describe("a campaign's answer names the origins the proxy allows", () => {
  const ctx = useStack({
    proxy: { allowedOrigins: ["https://hope.example.org", "https://www.hope.example.org"] },
  });

  it("for a form's success-url on another of the nonprofit's sites", async () => {
    const reply = await ctx.api.get("/v1/campaigns/71777/HOPE");
    expect(CampaignResponseSchema.parse(reply.json).allowed_origins).toEqual([
      "https://hope.example.org",
      "https://www.hope.example.org",
    ]);
  });
});

describe("the read-only API", () => {
  const ctx = useStack();

  it("GET /v1/health → 200 {status: ok, store: sqlite}", async () => {
    const reply = await ctx.api.get("/v1/health");
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ status: "ok", store: "sqlite" });
  });

  it("GET /v1/campaigns/71777/HOPE → the campaign's public settings, cacheable", async () => {
    const reply = await ctx.api.get("/v1/campaigns/71777/HOPE");
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ ...demo.campaigns[0], allowed_origins: [] });
    expect(reply.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
  });

  it("GET /v1/campaigns?event_id=&event_type= → the campaign named by its event", async () => {
    const reply = await ctx.api.get("/v1/campaigns?event_id=2026-hope-walk&event_type=peer_campaign");
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ ...demo.campaigns[0], allowed_origins: [] });
  });

  it("an event lookup without event_type → 400 naming it; an unknown event → 404", async () => {
    const missing = await ctx.api.get("/v1/campaigns?event_id=2026-hope-walk");
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: "validation_failed", errors: { event_type: ["Required."] } });
    const unknown = await ctx.api.get("/v1/campaigns?event_id=2026-hope-walk&event_type=campaign");
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: "campaign_not_served" });
  });

  it("a campaign not served → 404 campaign_not_served", async () => {
    const reply = await ctx.api.get("/v1/campaigns/71777/RUN");
    expect(reply.status).toBe(404);
    expect(reply.headers.get("content-type")).toBe("application/problem+json");
    expect(reply.json).toMatchObject({ code: "campaign_not_served", status: 404 });
  });

  it("peers: fundraisers and teams, public fields only, without the root NPO page", async () => {
    const reply = await ctx.api.get("/v1/campaigns/71777/HOPE/peers");
    expect(reply.status).toBe(200);
    expect(PeersResponseSchema.safeParse(reply.json).success).toBe(true);
    const peers = reply.json.peers as { id: string; kind: string }[];
    expect(peers.map((peer) => `${peer.kind}:${peer.id}`).toSorted()).toEqual(
      [
        "fundraiser:101",
        "fundraiser:102",
        "fundraiser:103",
        "fundraiser:104",
        "team:11",
        "team:12",
        "team:13",
      ].toSorted(),
    );
    for (const peer of peers)
      expect(Object.keys(peer).toSorted()).toEqual([
        "goal",
        "id",
        "kind",
        "name",
        "raised",
        "team_id",
        "team_name",
      ]);
    expect(peers.find((peer) => peer.id === "101")).toEqual({
      id: "101",
      name: "Ana Ruiz",
      kind: "fundraiser",
      team_id: "11",
      team_name: "Team Sunrise",
      raised: "0.00",
      goal: null,
    });
  });

  it("peers: each fundraiser's and team's total is what the sandbox collected for it", async () => {
    for (const [amount, peer] of [
      ["10.00", "101"],
      ["5.50", "101"],
      ["7.25", "103"],
    ] as const) {
      await donate(
        ctx.api,
        donationBody(await tokenize(ctx.api, CARDS.ok), { amount, peer_fundraiser_id: peer }),
      );
    }
    await donate(
      ctx.api,
      donationBody(await tokenize(ctx.api, CARDS.declined), { amount: "40.00", peer_fundraiser_id: "101" }),
    );
    const rows = await collected(ctx.sandbox, "HOPE");
    /** The sandbox's own sum for one fundraiser, or one team, in cents (the gift, not the fee). */
    const creditedTo = (field: "peer_fundraiser_id" | "peer_fundraiser_team_id", id: string) =>
      fromCents(
        rows.filter((row) => row[field] === id).reduce((sum, row) => sum + toCents(row.donation_amount), 0),
      );
    const peers = (await ctx.api.get("/v1/campaigns/71777/HOPE/peers")).json.peers as Peer[];
    const raised = (id: string, kind: string) =>
      peers.find((peer) => peer.id === id && peer.kind === kind)?.raised;
    expect(raised("101", "fundraiser")).toBe(creditedTo("peer_fundraiser_id", "101"));
    expect(raised("101", "fundraiser")).toBe("15.50");
    expect(raised("103", "fundraiser")).toBe("7.25");
    expect(raised("11", "team")).toBe(creditedTo("peer_fundraiser_team_id", "11"));
    // A team's goal, as the fixture gives Team Sunrise one and Night Owls none.
    expect(peers.find((peer) => peer.id === "11" && peer.kind === "team")?.goal).toBe("2000.00");
    expect(peers.find((peer) => peer.id === "12" && peer.kind === "team")?.goal).toBeNull();
  });

  it("peers: ?q= filters by name without regard to case; the list is cached", async () => {
    const reply = await ctx.api.get("/v1/campaigns/71777/HOPE/peers?q=OWL");
    expect(reply.json.peers.map((peer: { name: string }) => peer.name)).toEqual(["Night Owls"]);
    await ctx.api.get("/v1/campaigns/71777/HOPE/peers?q=ana");
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/fundraisers")).toBe(1);
  });

  it("peers of a campaign without peer fundraising → an empty list, upstream not asked", async () => {
    const reply = await ctx.api.get("/v1/campaigns/41444/MEALS/peers");
    expect(reply.json).toEqual({ peers: [] });
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/fundraisers")).toBe(0);
  });

  it("a search text over 100 characters → 400", async () => {
    const reply = await ctx.api.get(`/v1/campaigns/71777/HOPE/peers?q=${"a".repeat(101)}`);
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toHaveProperty("q");
  });

  it("a wrong method → 405 method_not_allowed with Allow; an unknown path → 404 not_found", async () => {
    const wrong = await fetch(`${ctx.proxy.url}/v1/donations`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect((await wrong.json()).code).toBe("method_not_allowed");
    const get = await ctx.api.get("/v1/payment-tokens");
    expect(get.status).toBe(405);
    const missing = await ctx.api.get("/v1/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe("not_found");
  });
});
