import { describe, expect, it } from "vitest";
import { createPeersCache, filterPeers, toPeers } from "./peers";
import type { UpstreamClient } from "./upstream/client";

const fundraisers = [
  { id: "npo-kw", name: "Hope Shelter", is_root: true, team_id: null },
  { id: 102, name: "ben Okafor", team_id: 11 },
  { id: "101", name: "Ana Ruiz", team_id: "11", total_raised: "10.00", email: "ana@example.org" },
  { id: "captain-12", name: "Night Owls captain", team_id: "12", hidden: true },
  { id: "103", name: "Chloe Park", team_id: null },
];
const teams = [
  {
    id: "11",
    name: "Team Sunrise",
    captain_id: "101",
    total_raised: "10.00",
    team_fundraising_goal: "2000.00",
  },
  // Totals the upstream writes in a way givekit does not read are left out, not guessed at.
  { id: 12, name: "Night Owls", captain_id: null, total_raised: "1,230.00", team_fundraising_goal: null },
];

describe("peers", () => {
  it("are the public fields of fundraisers and teams, without root or hidden records, sorted by name", () => {
    expect(toPeers(fundraisers, teams)).toEqual([
      {
        id: "101",
        name: "Ana Ruiz",
        kind: "fundraiser",
        team_id: "11",
        team_name: "Team Sunrise",
        raised: "10.00",
        goal: null,
      },
      {
        id: "102",
        name: "ben Okafor",
        kind: "fundraiser",
        team_id: "11",
        team_name: "Team Sunrise",
        raised: null,
        goal: null,
      },
      {
        id: "103",
        name: "Chloe Park",
        kind: "fundraiser",
        team_id: null,
        team_name: null,
        raised: null,
        goal: null,
      },
      {
        id: "12",
        name: "Night Owls",
        kind: "team",
        team_id: null,
        team_name: null,
        raised: null,
        goal: null,
      },
      {
        id: "11",
        name: "Team Sunrise",
        kind: "team",
        team_id: null,
        team_name: null,
        raised: "10.00",
        goal: "2000.00",
      },
    ]);
  });

  it("are filtered by name, ignoring case", () => {
    const peers = toPeers(fundraisers, teams);
    expect(filterPeers(peers, "OKA").map((p) => p.id)).toEqual(["102"]);
    expect(filterPeers(peers, " sun ").map((p) => p.id)).toEqual(["11"]);
    expect(filterPeers(peers, "")).toHaveLength(5);
    expect(filterPeers(peers, "zzz")).toEqual([]);
  });

  it("are cached for the configured time, and a failed load is not cached", async () => {
    let now = 0;
    let loads = 0;
    let fail = true;
    const upstream = {
      async fundraisers() {
        loads++;
        if (fail) throw new Error("down");
        return fundraisers;
      },
      async teams() {
        return teams;
      },
    } as unknown as UpstreamClient;
    const cache = createPeersCache(upstream, 60, () => now);
    const campaign = { shortcode: "71777", keyword: "HOPE" } as Parameters<typeof cache.get>[0];
    await expect(cache.get(campaign)).rejects.toThrow("down");
    fail = false;
    await cache.get(campaign);
    await cache.get(campaign);
    expect(loads).toBe(2);
    now += 61_000;
    await cache.get(campaign);
    expect(loads).toBe(3);
  });
});
