import { signal } from "@preact/signals-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Campaign } from "../../../contract/api";
import type { ApiClient, ApiResult } from "../../shared/api-client";
import { HOPE, PEERS } from "../test-harness";
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
  const asked: { query: string; answer: (peers: unknown) => void }[] = [];
  const api = {
    get: (path: string) =>
      new Promise<ApiResult<unknown>>((resolve) => {
        const query = new URL(path, "https://give.example.org").searchParams.get("q") ?? "";
        asked.push({ query, answer: (peers) => resolve({ kind: "ok", data: { peers } }) });
      }),
    post: () => Promise.reject(new Error("no posts here")),
  } as unknown as ApiClient;
  return { api, asked };
}

const model = (api: ApiClient, props = { fundraiser: null, team: null }, search = "") =>
  createPeerModel({ api, props, search, campaign: signal<Campaign | null>(HOPE) });

describe("the peer model", () => {
  it("asks once the donor pauses typing, not at every keystroke", async () => {
    const { api, asked } = fakeApi();
    const peers = model(api);
    peers.queuePeerSearch("a");
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS - 1);
    peers.queuePeerSearch("an");
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS - 1);
    peers.queuePeerSearch("ana");
    expect(asked).toHaveLength(0);
    vi.advanceTimersByTime(PEER_SEARCH_DEBOUNCE_MS);
    expect(asked.map((call) => call.query)).toEqual(["ana"]);
    expect(peers.peerSearching.value).toBe(true);
    asked[0]!.answer([PEERS[0]]);
    await vi.waitFor(() => expect(peers.peerResults.value).toEqual([PEERS[0]]));
    expect(peers.peerSearching.value).toBe(false);
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
    asked[0]!.answer(PEERS);
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
    asked[0]!.answer(PEERS);
    await done;
    expect(peers.peer.value).toBeNull();
    expect(peers.request()).toEqual({});
    expect(warn).toHaveBeenCalledWith(
      '[givekit] <givekit-donate>: fundraiser "999" is not part of this campaign.',
    );
  });
});
