import { describe, expect, it, vi } from "vitest";
import { createPeersCache, toPeers } from "./peers";
import type { UpstreamClient } from "../upstream/client";

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

  it("load once, answer from the last list while a new one loads in the background, and keep a failed load from being cached", async () => {
    let now = 0;
    let loads = 0;
    let fail = true;
    const gate = { open: (): void => undefined };
    let hold: Promise<void> | null = null;
    let names = fundraisers;
    const upstream = {
      async eachFundraiser(_s: string, _k: string, onRow: (row: unknown) => void) {
        loads++;
        if (hold) await hold;
        if (fail) throw new Error("down");
        for (const row of names) onRow(row);
        return { rows: names.length, skipped: 0 };
      },
      async eachTeam(_s: string, _k: string, onRow: (row: unknown) => void) {
        for (const row of teams) onRow(row);
        return { rows: teams.length, skipped: 0 };
      },
    } as unknown as UpstreamClient;
    const stale: unknown[] = [];
    const cache = createPeersCache(
      upstream,
      60,
      () => now,
      (_campaign, error) => stale.push(error),
    );
    const campaign = { shortcode: "71777", keyword: "HOPE" } as Parameters<typeof cache.get>[0];
    const names_ = async (query: string) =>
      JSON.parse(
        Buffer.from((await cache.answer(campaign, { kind: "search", query })).identity.body).toString(),
      ).peers.map((peer: { name: string }) => peer.name);
    await expect(cache.get(campaign)).rejects.toThrow("down");
    fail = false;
    expect(await names_("ana")).toEqual(["Ana Ruiz"]);
    expect(await names_("ana")).toEqual(["Ana Ruiz"]);
    expect(loads).toBe(2);
    // Past its time the list is still answered at once, while the next one loads.
    now += 61_000;
    names = [...fundraisers, { id: "105", name: "Anand Rao", team_id: null }];
    hold = new Promise((resolve) => (gate.open = resolve));
    expect(await names_("ana")).toEqual(["Ana Ruiz"]);
    expect(loads).toBe(3);
    gate.open();
    await hold;
    hold = null;
    await vi.waitFor(async () => expect(await names_("ana")).toEqual(["Ana Ruiz", "Anand Rao"]));
    // A failed refresh keeps the last list, says so, and is not tried again on every request.
    now += 61_000;
    fail = true;
    expect(await names_("ana")).toEqual(["Ana Ruiz", "Anand Rao"]);
    await vi.waitFor(() => expect(stale).toHaveLength(1));
    expect(await names_("rao")).toEqual(["Anand Rao"]);
    expect(loads).toBe(4);
  });
});
