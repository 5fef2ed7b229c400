import { describe, expect, it } from "vitest";
import type { Campaign, Peer } from "../../contract/api";
import type { GalaFigures } from "./gala-feed";
import { createLiveHub, type LiveClient } from "./live-hub";

const campaign = { shortcode: "71777", keyword: "HOPE" } as Campaign;
const peer = (kind: Peer["kind"], raised: string): Peer => ({
  id: kind === "team" ? "7" : "9",
  name: kind === "team" ? "Blue Team" : "Ana Ruiz",
  kind,
  team_id: null,
  team_name: null,
  raised,
  goal: null,
});
const figures = (raised: string, failing = false): GalaFigures => ({
  progress: { raised, goal: null, donors: 1, currency: "USD", updated_at: "2026-11-27T01:00:00.000Z" },
  wall: [],
  leaders: (kind) => [peer(kind, raised)],
  read_at: Number(raised.replace(".", "")),
  failing,
});
const leadersIn = (chunk: string) =>
  (JSON.parse(chunk.split("data: ")[1]!) as { leaders?: Peer[] }).leaders?.map((p) => [p.name, p.raised]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function client(slow = false) {
  const got: string[] = [];
  let closed = false;
  let release: (() => void) | undefined;
  const sink: LiveClient = {
    write: (chunk) => {
      got.push(chunk);
      return slow ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    },
    close: () => (closed = true),
  };
  return { sink, got, closed: () => closed, release: () => release?.() };
}
const raisedIn = (chunk: string) =>
  (JSON.parse(chunk.split("data: ")[1]!) as { progress: { raised: string } }).progress.raised;

describe("the live hub", () => {
  it("reads once per tick for all its clients and sends each change once to each", async () => {
    let current = figures("10.00");
    let reads = 0;
    let boards = 0;
    const hub = createLiveHub({
      progress: {
        live: async () => {
          reads++;
          return { ...current, leaders: (kind) => (boards++, current.leaders(kind)) };
        },
      },
      tickMs: 20,
    });
    const clients = Array.from({ length: 50 }, () => client());
    const leaves = clients.map((c) => hub.join(campaign, c.sink, current, "teams"));
    await sleep(70);
    current = figures("25.00");
    await sleep(70);
    expect(reads).toBeLessThanOrEqual(8);
    // One message per view per tick: the board is ranked and written once, not once per client.
    expect(boards).toBe(reads);
    for (const c of clients) expect(c.got.map(raisedIn)).toEqual(["10.00", "25.00"]);
    expect(hub.connections()).toBe(50);
    for (const leave of leaves) leave();
    expect(hub.connections()).toBe(0);
    const before = reads;
    await sleep(60);
    // Nobody watches: nothing is read any more.
    expect(reads).toBe(before);
  });

  it("a slow client gets the latest figures when it is ready, not every one in between", async () => {
    let current = figures("1.00");
    const hub = createLiveHub({ progress: { live: async () => current }, tickMs: 10 });
    const slow = client(true);
    const leave = hub.join(campaign, slow.sink, current);
    for (const raised of ["2.00", "3.00", "4.00"]) {
      current = figures(raised);
      await sleep(30);
    }
    slow.release();
    await sleep(5);
    expect(slow.got.map(raisedIn)).toEqual(["1.00", "4.00"]);
    leave();
  });

  it("sends each view its own message: the leaderboard of the kind asked, none where none was", async () => {
    let current = figures("1.00");
    const hub = createLiveHub({ progress: { live: async () => current }, tickMs: 10 });
    const [plain, teams, fundraisers] = [client(), client(), client()];
    hub.join(campaign, plain.sink, current);
    hub.join(campaign, teams.sink, current, "teams");
    hub.join(campaign, fundraisers.sink, current, "fundraisers");
    current = figures("2.00");
    await sleep(40);
    expect(plain.got.map(leadersIn)).toEqual([undefined, undefined]);
    expect(teams.got.map(leadersIn)).toEqual([[["Blue Team", "1.00"]], [["Blue Team", "2.00"]]]);
    expect(fundraisers.got.map(leadersIn)).toEqual([[["Ana Ruiz", "1.00"]], [["Ana Ruiz", "2.00"]]]);
  });

  it("says the figures are stale while reads fail, and ends every stream while the proxy closes", async () => {
    let current = figures("5.00");
    let draining = false;
    const hub = createLiveHub({
      progress: { live: async () => current },
      tickMs: 10,
      draining: () => draining,
    });
    const c = client();
    hub.join(campaign, c.sink, current);
    current = { ...figures("5.00", true), read_at: 500 };
    await sleep(40);
    expect(c.got.at(-1)).toContain('"stale":true');
    draining = true;
    await sleep(30);
    expect(c.closed()).toBe(true);
    expect(hub.connections()).toBe(0);
  });
});
