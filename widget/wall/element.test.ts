// <givekit-wall> and <givekit-leaderboard>: what the proxy sends, as a room sees it.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { defineLeaderboardElement } from "../leaderboard/element";
import { defineWallElement } from "./element";
import { readLeaderboard, readLive, readWall } from "../shared/read-feeds";
import { peer, stubFetch } from "../shared/plain-test-helpers";

const PROXY = "https://give.example.org";
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const entry = (
  id: string,
  name: string,
  amount: string,
  minutesAgo: number,
  credited: string | null = null,
) => ({
  id,
  name,
  amount,
  fundraiser_id: null,
  team_id: null,
  at: at(minutesAgo),
  credited,
});
const wall = (...entries: ReturnType<typeof entry>[]) => ({
  entries,
  currency: "USD",
  updated_at: new Date().toISOString(),
});

function place(tag: string, attributes: Record<string, string>) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries({ proxy: PROXY, ...attributes }))
    element.setAttribute(name, value);
  document.body.append(element);
  return element;
}
const rows = (element: HTMLElement, part: string) =>
  [...element.shadowRoot!.querySelectorAll(`[part~="${part}"]`)].map((node) => node.textContent);

beforeAll(() => {
  defineWallElement();
  defineLeaderboardElement();
});
afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("<givekit-wall>", () => {
  it("lists the latest gifts newest first: name, amount, whom it credits, how long ago", async () => {
    // No EventSource here: the wall polls.
    vi.stubGlobal("EventSource", undefined);
    const calls = stubFetch([
      200,
      wall(entry("2", "Anonymous", "40.00", 0), entry("1", "Ana G.", "25.50", 3, "Team Sunrise")),
    ]);
    const element = place("givekit-wall", { shortcode: "71777", keyword: "HOPE", limit: "8" });
    await vi.waitFor(() => expect(rows(element, "name")).toEqual(["Anonymous", "Ana G."]));
    expect(rows(element, "amount")).toEqual(["$40", "$25.50"]);
    expect(rows(element, "credited")).toEqual(["for Team Sunrise"]);
    expect(rows(element, "time")).toEqual(["now", "3 minutes ago"]);
    expect(element.shadowRoot!.querySelector("ol")!.getAttribute("aria-label")).toBe("Latest gifts");
    expect(calls[0]!.url).toBe(`${PROXY}/v1/campaigns/71777/HOPE/wall?limit=8`);
  });

  it('hides the amounts with amounts="hidden", and speaks Spanish', async () => {
    vi.stubGlobal("EventSource", undefined);
    stubFetch([200, wall(entry("2", "Anonymous", "40.00", 120))]);
    const element = place("givekit-wall", {
      shortcode: "71777",
      keyword: "HOPE",
      amounts: "hidden",
      locale: "es",
    });
    await vi.waitFor(() => expect(rows(element, "name")).toEqual(["Anónimo"]));
    expect(rows(element, "amount")).toEqual([]);
    expect(rows(element, "time")).toEqual(["hace 2 horas"]);
  });

  it("shows a name with markup and bidi controls as text, never as markup", async () => {
    vi.stubGlobal("EventSource", undefined);
    const hostile = `<img src=x onerror="alert(1)">${"W".repeat(40)}`;
    stubFetch([200, wall(entry("1", hostile, "5.00", 1))]);
    const element = place("givekit-wall", { shortcode: "71777", keyword: "HOPE" });
    await vi.waitFor(() => expect(rows(element, "name")).toEqual([hostile]));
    expect(element.shadowRoot!.querySelector("img")).toBeNull();
  });

  it("a bad attribute: a [givekit] line and a polite note; a failed answer: a note, never an empty box", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.stubGlobal("EventSource", undefined);
    stubFetch([503, {}]);
    const bad = place("givekit-wall", { shortcode: "71777", keyword: "HOPE", limit: "500" });
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith(expect.stringContaining('"limit"')));
    expect(bad.shadowRoot!.textContent).toContain("not available");
    const down = place("givekit-wall", { shortcode: "71777", keyword: "HOPE" });
    await vi.waitFor(() =>
      expect(down.shadowRoot!.textContent).toContain("The latest gifts are not available"),
    );
  });
});

describe("<givekit-leaderboard>", () => {
  it("ranks as the proxy sends, with each team's goal bar and a link to give to it", async () => {
    // No EventSource here: the leaderboard polls.
    vi.stubGlobal("EventSource", undefined);
    const calls = stubFetch([
      200,
      {
        of: "teams",
        currency: "USD",
        leaders: [peer("12", "Night Owls", "550.00", "1000.00"), peer("11", "Team Sunrise", "400.00")],
      },
    ]);
    const element = place("givekit-leaderboard", {
      shortcode: "71777",
      keyword: "HOPE",
      of: "teams",
      "donate-url": "https://shelter.example/give?utm_source=wall&team=99",
    });
    await vi.waitFor(() => expect(rows(element, "name")).toEqual(["Night Owls", "Team Sunrise"]));
    expect(rows(element, "heading")).toEqual(["Top teams"]);
    expect(rows(element, "raised")).toEqual(["$550 raised", "$400 raised"]);
    const bars = element.shadowRoot!.querySelectorAll('[role="progressbar"]');
    expect(bars).toHaveLength(1);
    expect(bars[0]!.getAttribute("aria-valuenow")).toBe("55");
    const links = [...element.shadowRoot!.querySelectorAll("a")];
    expect(links.map((link) => [link.getAttribute("aria-label"), link.href])).toEqual([
      ["Give to Night Owls", "https://shelter.example/give?utm_source=wall&team=12"],
      ["Give to Team Sunrise", "https://shelter.example/give?utm_source=wall&team=11"],
    ]);
    expect(calls[0]!.url).toBe(`${PROXY}/v1/campaigns/71777/HOPE/leaderboard?of=teams&limit=5`);
  });

  it("refuses an unknown kind with a [givekit] line", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    stubFetch([200, {}]);
    place("givekit-leaderboard", { shortcode: "71777", keyword: "HOPE", of: "donors" });
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith(expect.stringContaining('"of"')));
  });
});

describe("the readers", () => {
  it("take what the proxy sends and refuse what is not that", () => {
    expect(readWall(wall(entry("1", "Ana G.", "5.00", 1)))?.entries).toHaveLength(1);
    expect(
      readWall({ entries: [{ ...entry("1", "A", "5.00", 1), amount: 5 }], currency: "USD", updated_at: "" }),
    ).toBeNull();
    const progress = { raised: "5.00", goal: null, donors: 1, currency: "USD", updated_at: "x" };
    expect(readLive({ progress, wall: [], stale: false })).toEqual({ progress, wall: [], stale: false });
    expect(readLive({ progress, wall: [], stale: "no" })).toBeNull();
    const leaders = [peer("12", "Night Owls", "550.00", "1000.00")];
    expect(readLive({ progress, wall: [], stale: false, leaders })).toEqual({
      progress,
      wall: [],
      stale: false,
      leaders,
    });
    expect(
      readLive({ progress, wall: [], stale: false, leaders: [{ ...leaders[0], raised: 5 }] }),
    ).toBeNull();
    expect(readLeaderboard({ of: "donors", currency: "USD", leaders: [] })).toBeNull();
  });
});
