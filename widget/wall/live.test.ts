// <givekit-wall> and <givekit-leaderboard> live: what the proxy's stream sends, as a room sees
// it; what they say when it is not live; polling where the stream cannot be had.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { defineLeaderboardElement } from "../leaderboard/element";
import { defineWallElement } from "./element";
import { FakeSource, peer, stream, stubFetch } from "../shared/plain-test-helpers";

const PROXY = "https://give.example.org";
const BASE = `${PROXY}/v1/campaigns/71777/HOPE`;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A polled leaderboard: one team, with what it raised. */
const board = (raised: string) => ({
  of: "teams",
  currency: "USD",
  leaders: [peer("9", "Night Owls", raised)],
});
const entry = (id: string, name: string, amount: string) => ({
  id,
  name,
  amount,
  fundraiser_id: null,
  team_id: null,
  at: ago(1),
  credited: null,
});
/** A live message, its figures read `minutesAgo` before now. */
const message = (
  parts: { leaders?: ReturnType<typeof peer>[]; wall?: ReturnType<typeof entry>[]; stale?: boolean },
  minutesAgo = 0,
  currency = "USD",
) => ({
  progress: { raised: "100.00", goal: null, donors: 3, currency, updated_at: ago(minutesAgo) },
  wall: parts.wall ?? [],
  stale: parts.stale ?? false,
  ...(parts.leaders && { leaders: parts.leaders }),
});

function place(tag: string, attributes: Record<string, string>) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries({
    proxy: PROXY,
    shortcode: "71777",
    keyword: "HOPE",
    ...attributes,
  }))
    element.setAttribute(name, value);
  document.body.append(element);
  return element;
}
const texts = (element: HTMLElement, part: string) =>
  [...element.shadowRoot!.querySelectorAll(`[part~="${part}"]`)].map((node) => node.textContent);
const status = (element: HTMLElement) => element.shadowRoot!.querySelector<HTMLElement>('[part="status"]');

beforeAll(() => {
  defineWallElement();
  defineLeaderboardElement();
});
afterEach(() => {
  document.body.replaceChildren();
  FakeSource.opened = [];
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("<givekit-leaderboard> live", () => {
  it("shows the live message's leaders, in its order, with its amounts and currency, and fetches nothing", async () => {
    vi.stubGlobal("EventSource", FakeSource);
    const calls = stubFetch([500, {}]);
    const element = place("givekit-leaderboard", { of: "fundraisers", limit: "3" });
    const source = await stream(`${BASE}/live?of=fundraisers`);
    // Not by name, not by id: the order the proxy sent, cut at `limit`.
    source.send(
      message(
        {
          leaders: [
            peer("9", "Zoe Q.", "900.00"),
            peer("2", "Ana G.", "450.50"),
            peer("7", "Mo T.", "450.00"),
            peer("1", "Bea L.", "10.00"),
          ],
        },
        0,
        "EUR",
      ),
    );
    await vi.waitFor(() => expect(texts(element, "name")).toEqual(["Zoe Q.", "Ana G.", "Mo T."]));
    expect(texts(element, "raised")).toEqual(["€900 raised", "€450.50 raised", "€450 raised"]);
    expect(texts(element, "heading")).toEqual(["Top fundraisers"]);
    // The next message reorders it.
    source.send(message({ leaders: [peer("7", "Mo T.", "1000.00"), peer("9", "Zoe Q.", "900.00")] }));
    await vi.waitFor(() => expect(texts(element, "name")).toEqual(["Mo T.", "Zoe Q."]));
    expect(texts(element, "raised")).toEqual(["$1,000 raised", "$900 raised"]);
    expect(status(element)!.textContent).toBe("");
    expect(calls).toEqual([]);
  });

  it("says it is reconnecting when the stream drops, keeping the last leaders; the next message takes the note away", async () => {
    vi.stubGlobal("EventSource", FakeSource);
    const calls = stubFetch([500, {}]);
    const element = place("givekit-leaderboard", {});
    const source = await stream(`${BASE}/live?of=teams`);
    source.send(message({ leaders: [peer("9", "Night Owls", "900.00")] }, 2));
    await vi.waitFor(() => expect(texts(element, "name")).toEqual(["Night Owls"]));
    source.drop();
    await vi.waitFor(() => expect(status(element)!.textContent).toBe("Reconnecting… updated 2 minutes ago"));
    expect(status(element)!.getAttribute("role")).toBe("status");
    expect(texts(element, "name")).toEqual(["Night Owls"]);
    source.send(message({ leaders: [peer("9", "Night Owls", "950.00")] }));
    await vi.waitFor(() => expect(status(element)!.textContent).toBe(""));
    expect(texts(element, "raised")).toEqual(["$950 raised"]);
    expect(calls).toEqual([]);
  });

  it("says so when the proxy's message is stale, in Spanish where asked", async () => {
    vi.stubGlobal("EventSource", FakeSource);
    stubFetch([500, {}]);
    const element = place("givekit-leaderboard", { locale: "es" });
    const source = await stream(`${BASE}/live?of=teams`);
    source.send(message({ leaders: [peer("9", "Night Owls", "900.00")], stale: true }, 2));
    await vi.waitFor(() =>
      expect(status(element)!.textContent).toBe("Reconectando… actualizado hace 2 minutos"),
    );
    expect(texts(element, "heading")).toEqual(["Equipos destacados"]);
    expect(texts(element, "raised")).toEqual(["$900 recaudados"]);
    source.send(message({ leaders: [peer("9", "Night Owls", "900.00")] }));
    await vi.waitFor(() => expect(status(element)!.textContent).toBe(""));
  });

  it("polls every `refresh` seconds where there is no EventSource, and says so when a poll fails", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    vi.stubGlobal("EventSource", undefined);
    const calls = stubFetch([200, board("100.00")], [503, {}], [200, board("150.00")]);
    const element = place("givekit-leaderboard", { refresh: "20" });
    await vi.waitFor(() => expect(texts(element, "raised")).toEqual(["$100 raised"]));
    await vi.advanceTimersByTimeAsync(20_000);
    await vi.waitFor(() => expect(status(element)!.textContent).toBe("Reconnecting… updated now"));
    expect(texts(element, "raised")).toEqual(["$100 raised"]);
    await vi.advanceTimersByTimeAsync(20_000);
    await vi.waitFor(() => expect(texts(element, "raised")).toEqual(["$150 raised"]));
    expect(status(element)!.textContent).toBe("");
    expect(calls.map((call) => call.url)).toEqual(Array(3).fill(`${BASE}/leaderboard?of=teams&limit=5`));
  });

  it("polls once the browser gives up on the stream, and where the proxy's messages carry no leaderboard", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    vi.stubGlobal("EventSource", FakeSource);
    const calls = stubFetch([
      200,
      { of: "teams", currency: "USD", leaders: [peer("9", "Night Owls", "5.00")] },
    ]);
    const gaveUp = place("givekit-leaderboard", {});
    const source = await stream(`${BASE}/live?of=teams`);
    source.send(message({ leaders: [peer("9", "Night Owls", "1.00")] }));
    await vi.waitFor(() => expect(texts(gaveUp, "raised")).toEqual(["$1 raised"]));
    source.drop(true);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.waitFor(() => expect(texts(gaveUp, "raised")).toEqual(["$5 raised"]));
    expect(calls).toHaveLength(1);
    gaveUp.remove();

    const older = place("givekit-leaderboard", {});
    (await stream(`${BASE}/live?of=teams`)).send(message({}));
    await vi.waitFor(() => expect(texts(older, "raised")).toEqual(["$5 raised"]));
    expect(calls).toHaveLength(2);
  });

  it("opens the stream again after the browser gave up on it, sooner than a poll, and stops polling once it is back", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "setTimeout", "clearTimeout"] });
    vi.stubGlobal("EventSource", FakeSource);
    const calls = stubFetch([200, board("2.00")], [200, board("3.00")], [200, board("4.00")]);
    const element = place("givekit-leaderboard", {});
    const first = await stream(`${BASE}/live?of=teams`);
    first.send(message({ leaders: [peer("9", "Night Owls", "1.00")] }));
    await vi.waitFor(() => expect(texts(element, "raised")).toEqual(["$1 raised"]));
    // A proxy restarting answers 503: the browser gives up on the stream.
    first.drop(true);
    expect(status(element)!.textContent).toMatch(/^Reconnecting/);
    await vi.advanceTimersByTimeAsync(5000);
    expect(FakeSource.opened.filter((source) => source.url === `${BASE}/live?of=teams`)).toHaveLength(2);
    const second = FakeSource.opened.at(-1)!;
    second.send(message({ leaders: [peer("9", "Night Owls", "7.00")] }));
    await vi.waitFor(() => expect(texts(element, "raised")).toEqual(["$7 raised"]));
    expect(status(element)!.textContent).toBe("");
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(0);
  });

  it("asks again at once, past the cache, after a gift through a givekit form on the page", async () => {
    vi.stubGlobal("EventSource", FakeSource);
    const calls = stubFetch([
      200,
      { of: "teams", currency: "USD", leaders: [peer("9", "Night Owls", "60.00")] },
    ]);
    const element = place("givekit-leaderboard", {});
    (await stream(`${BASE}/live?of=teams`)).send(message({ leaders: [peer("9", "Night Owls", "10.00")] }));
    await vi.waitFor(() => expect(texts(element, "raised")).toEqual(["$10 raised"]));
    document.dispatchEvent(new CustomEvent("givekit:donation", { detail: { status: "Pending" } }));
    document.dispatchEvent(new CustomEvent("givekit:donation", { detail: { status: "Success" } }));
    await vi.waitFor(() => expect(texts(element, "raised")).toEqual(["$60 raised"]));
    expect(calls).toEqual([{ url: `${BASE}/leaderboard?of=teams&limit=5`, cache: "no-cache" }]);
  });
});

describe("<givekit-wall> live", () => {
  it("shows the stream's gifts, says it is reconnecting when the stream drops or the figures are stale, and not after", async () => {
    vi.stubGlobal("EventSource", FakeSource);
    const calls = stubFetch([500, {}]);
    const element = place("givekit-wall", {});
    const source = await stream(`${BASE}/live`);
    source.send(message({ wall: [entry("2", "Ana G.", "40.00"), entry("1", "Anonymous", "5.00")] }, 3));
    await vi.waitFor(() => expect(texts(element, "name")).toEqual(["Ana G.", "Anonymous"]));
    expect(status(element)!.textContent).toBe("");
    source.drop();
    await vi.waitFor(() => expect(status(element)!.textContent).toBe("Reconnecting… updated 3 minutes ago"));
    expect(texts(element, "name")).toEqual(["Ana G.", "Anonymous"]);
    source.send(message({ wall: [entry("3", "Mo T.", "7.00"), entry("2", "Ana G.", "40.00")] }));
    await vi.waitFor(() => expect(status(element)!.textContent).toBe(""));
    expect(texts(element, "name")).toEqual(["Mo T.", "Ana G."]);
    source.send(message({ wall: [entry("3", "Mo T.", "7.00")], stale: true }, 5));
    await vi.waitFor(() => expect(status(element)!.textContent).toBe("Reconnecting… updated 5 minutes ago"));
    source.send(message({ wall: [entry("3", "Mo T.", "7.00")] }));
    await vi.waitFor(() => expect(status(element)!.textContent).toBe(""));
    expect(calls).toEqual([]);
  });

  it("in Spanish, and after a failed poll where there is no EventSource", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    vi.stubGlobal("EventSource", undefined);
    const calls = stubFetch(
      [200, { entries: [entry("1", "Ana G.", "5.00")], currency: "USD", updated_at: ago(4) }],
      [503, {}],
    );
    const element = place("givekit-wall", { locale: "es" });
    await vi.waitFor(() => expect(texts(element, "name")).toEqual(["Ana G."]));
    expect(status(element)!.textContent).toBe("");
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.waitFor(() =>
      expect(status(element)!.textContent).toBe("Reconectando… actualizado hace 4 minutos"),
    );
    expect(texts(element, "name")).toEqual(["Ana G."]);
    expect(calls.map((call) => call.url)).toEqual(Array(2).fill(`${BASE}/wall?limit=12`));
  });

  it("a stream that never sends: one look at the wall, and a note rather than an empty box when that fails too", async () => {
    vi.stubGlobal("EventSource", FakeSource);
    const calls = stubFetch([503, {}]);
    const element = place("givekit-wall", {});
    const source = await stream(`${BASE}/live`);
    source.drop();
    source.drop();
    await vi.waitFor(() =>
      expect(element.shadowRoot!.textContent).toContain("The latest gifts are not available"),
    );
    expect(calls).toHaveLength(1);
  });
});
