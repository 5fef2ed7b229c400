import { signal } from "@preact/signals-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Campaign } from "../../../contract/api";
import type { ApiClient, ApiResult } from "../../shared/api-client";
import { HOPE, PEERS } from "../../../test/helpers/donate-harness";
import { createPeerModel, PEER_SEARCH_DEBOUNCE_MS } from "./peers";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A proxy whose peer searches answer when the test says so, in any order. */
function fakeApi() {
  const asked: {
    query: string;
    params: Record<string, string>;
    answer: (peers: unknown, more?: number) => void;
    fail: () => void;
  }[] = [];
  const api = {
    get: (path: string) =>
      new Promise<ApiResult<unknown>>((resolve) => {
        const params = new URL(path, "https://give.example.org").searchParams;
        asked.push({
          query: params.get("q") ?? "",
          params: Object.fromEntries(params),
          answer: (peers, more) => resolve({ kind: "ok", data: more ? { peers, more } : { peers } }),
          fail: () => resolve({ kind: "unreachable" }),
        });
      }),
    post: () => Promise.reject(new Error("no posts here")),
  } as unknown as ApiClient;
  return { api, asked };
}

const model = (
  api: ApiClient,
  props: { fundraiser: string | null; team: string | null } = { fundraiser: null, team: null },
  search = "",
) => createPeerModel({ api, props, search, campaign: signal<Campaign | null>(HOPE) });

describe("the peer model", () => {
  it("asks at once for the first letter, then once the donor pauses typing, not at every keystroke", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api);
    peers.queuePeerSearch("a");
    expect(asked.map((call) => call.query)).toEqual(["a"]);
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS - 100);
    peers.queuePeerSearch("an");
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS - 1);
    peers.queuePeerSearch("ana");
    expect(asked).toHaveLength(1);
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS);
    expect(asked.map((call) => call.query)).toEqual(["a", "ana"]);
    expect(peers.peerSearching.value).toBe(true);
    asked[1]!.answer([PEERS[0]]);
    await vi.waitFor(() => expect(peers.peerResults.value).toEqual([PEERS[0]]));
    expect(peers.peerSearching.value).toBe(false);
    // The earlier answer, come late, is not shown.
    asked[0]!.answer([PEERS[1]]);
    await Promise.resolve();
    expect(peers.peerResults.value).toEqual([PEERS[0]]);
  });

  it("keeps only the latest answer: a slow earlier search does not overwrite it", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api);
    peers.queuePeerSearch("an");
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS);
    peers.queuePeerSearch("dev");
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS);
    asked[1]!.answer([PEERS[2]]);
    await vi.waitFor(() => expect(peers.peerResults.value).toEqual([PEERS[2]]));
    asked[0]!.answer([PEERS[0], PEERS[1]]);
    await Promise.resolve();
    expect(peers.peerResults.value).toEqual([PEERS[2]]);
  });

  it("closing the list drops an answer still on its way", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api);
    peers.queuePeerSearch("ana");
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS);
    peers.closePeerResults();
    asked[0]!.answer([PEERS[0]]);
    await Promise.resolve();
    expect(peers.peerResults.value).toBeNull();
  });

  it("preselects the link's fundraiser if it is the campaign's, and credits the gift to it", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api, { fundraiser: null, team: null }, "?fundraiser=103");
    const done = peers.preselect(HOPE);
    // That one peer, by its id: never the campaign's whole list.
    expect(asked.map((call) => call.params)).toEqual([{ fundraiser: "103" }]);
    asked[0]!.answer(PEERS.filter((peer) => peer.id === "103"));
    await done;
    expect(peers.peer.value?.name).toBe("Chloe Park");
    expect(peers.request()).toEqual({ peer_fundraiser_id: "103" });
    peers.pick(PEERS[3]!);
    expect(peers.request()).toEqual({ peer_fundraiser_team_id: "12" });
  });

  it("a link's fundraiser that is not the campaign's is named in a [givekit] line, and nobody is credited", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { api, asked } = fakeApi();
    const peers = model(api, { fundraiser: null, team: null }, "?fundraiser=999");
    const done = peers.preselect(HOPE);
    asked[0]!.answer([]);
    await done;
    expect(peers.peer.value).toBeNull();
    expect(peers.waiting()).toBe(false);
    expect(peers.request()).toEqual({});
    expect(warn).toHaveBeenCalledWith(
      '[givekit] <givekit-donate>: fundraiser "999" is not part of this campaign.',
    );
  });

  it("a preselection that cannot be looked up is said, holds the gift back, and is tried again on request", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api, { fundraiser: null, team: null }, "?team=12");
    const done = peers.preselect(HOPE);
    expect(asked[0]!.params).toEqual({ team: "12" });
    asked[0]!.fail();
    await done;
    expect(peers.peerFailed.value).toBe(true);
    // Nobody credited in silence: the gift waits for the donor's word.
    expect(peers.waiting()).toBe(true);
    expect(peers.request()).toEqual({});
    const retried = peers.retryPeer();
    expect(peers.peerFailed.value).toBe(false);
    asked[1]!.answer(PEERS.filter((peer) => peer.id === "12" && peer.kind === "team"));
    await retried;
    expect(peers.waiting()).toBe(false);
    expect(peers.request()).toEqual({ peer_fundraiser_team_id: "12" });
  });

  it("a donor may give without the preselection that failed", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api, { fundraiser: "103", team: null });
    const done = peers.preselect(HOPE);
    asked[0]!.fail();
    await done;
    peers.pick(null);
    expect(peers.peerFailed.value).toBe(false);
    expect(peers.waiting()).toBe(false);
    expect(peers.request()).toEqual({});
  });

  it("a search that fails closes the list rather than say that nobody matches; a query without a letter or digit is not sent", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api);
    for (const query of ["   ", "<>", "--"]) peers.queuePeerSearch(query);
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS * 2);
    expect(asked).toHaveLength(0);
    peers.queuePeerSearch("an");
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS);
    asked[0]!.fail();
    // Closed, rather than an empty list that would say nobody matches.
    await vi.waitFor(() => expect(peers.peerSearching.value).toBe(false));
    expect(peers.peerResults.value).toBeNull();
    peers.queuePeerSearch("ana");
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS);
    asked[1]!.answer([PEERS[0]], 41);
    await vi.waitFor(() => expect(peers.peerResults.value).toEqual([PEERS[0]]));
    expect(peers.peerMore.value).toBe(41);
  });

  it("choosing from the list drops a search still waiting for the pause or on its way", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api);
    peers.queuePeerSearch("a");
    peers.queuePeerSearch("an");
    asked[0]!.answer([PEERS[0]]);
    await vi.waitFor(() => expect(peers.peerResults.value).toEqual([PEERS[0]]));
    peers.pick(PEERS[0]!);
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS * 2);
    expect(asked).toHaveLength(1);
    expect(peers.peerResults.value).toBeNull();
    expect(peers.peer.value).toEqual(PEERS[0]);
  });
});
