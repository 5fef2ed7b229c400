import { batch, signal, type ReadonlySignal } from "@preact/signals-core";
import type { Campaign, DonationRequest, Peer } from "../../../contract/api";
import { PEER_ID_PATTERN } from "../../../contract/patterns";
import type { ApiClient } from "../../shared/api-client";
import { warn, type DonateProps } from "../base/attributes";
import { readPeers } from "../base/responses";
import { keywordPath } from "../campaign/campaign";

/** Wait this long after the last keystroke before searching fundraisers and teams. */
export const PEER_SEARCH_DEBOUNCE_MS = 200;

/** A peer id from the host page's URL, if it is a well-formed one. */
function urlPeer(search: string, name: "fundraiser" | "team"): string | null {
  const value = new URLSearchParams(search).get(name);
  return value && PEER_ID_PATTERN.test(value) ? value : null;
}

/** A query worth asking about: one with a letter or a digit (the proxy finds no one otherwise). */
const searchable = (query: string) => /[\p{L}\p{N}]/u.test(query);

/**
 * The fundraiser or team a gift is credited to: preselected by the element (`fundraiser`,
 * `team`) or the page's link (`?fundraiser=`), looked up by its id alone, or found by the donor
 * in a search that waits for a pause in typing and keeps only the latest answer (at most a
 * page of matches and how many `more`: never the whole list). A preselection that cannot be
 * looked up is said to the donor, who may try again or give without it: never given to no one
 * in silence.
 *
 * @example
 * const peers = createPeerModel({ api, props, search: location.search, campaign });
 * peers.queuePeerSearch("ana"); // asks the proxy PEER_SEARCH_DEBOUNCE_MS after the last call
 */
export function createPeerModel({
  api,
  props,
  search,
  campaign,
}: {
  api: ApiClient;
  props: Pick<DonateProps, "fundraiser" | "team">;
  search: string;
  campaign: ReadonlySignal<Campaign | null>;
}) {
  const peer = signal<Peer | null>(null);
  const peerResults = signal<Peer[] | null>(null);
  /** How many more match than the list shows (a longer name narrows them down). */
  const peerMore = signal(0);
  const peerSearching = signal(false);
  /** The element's or link's fundraiser or team could not be looked up. */
  const peerFailed = signal(false);
  /** The picker's search box, and the option its arrow keys are on (-1: none). */
  const peerQuery = signal("");
  const peerActive = signal(-1);
  /** The fundraiser or team named by the element or the link, until it is looked up or set aside. */
  let pending: { kind: Peer["kind"]; id: string } | null = null;
  let searchSeq = 0;
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the donor last typed (ms since the epoch). */
  let typedAt = 0;

  async function fetchPeers(c: Campaign, params: Record<string, string>) {
    const path = `${keywordPath(c.shortcode, c.keyword)}/peers?${new URLSearchParams(params)}`;
    const result = await api.get<unknown>(path);
    return result.kind === "ok" ? readPeers(result.data) : null;
  }

  /** Searches the campaign's fundraisers and teams; only the latest answer is kept. */
  async function searchPeers(query: string) {
    const c = campaign.value;
    if (!c) return;
    const seq = ++searchSeq;
    peerSearching.value = true;
    const found = await fetchPeers(c, { q: query.trim() });
    if (seq !== searchSeq) return;
    // A search that failed closes the list rather than say that nobody matches.
    batch(() => {
      peerResults.value = found?.peers ?? null;
      peerMore.value = found?.more ?? 0;
      peerSearching.value = false;
    });
  }

  /** Looks the pending fundraiser or team up by its id; a failure is kept for the donor to see. */
  async function lookUp(c: Campaign) {
    const asked = pending;
    if (!asked) return;
    peerFailed.value = false;
    const found = await fetchPeers(c, { [asked.kind]: asked.id });
    if (pending !== asked) return;
    if (!found) {
      peerFailed.value = true;
      return;
    }
    pending = null;
    // The proxy answers that one peer, or none when the campaign has no such peer.
    const [match] = found.peers;
    if (match) peer.value = match;
    else warn(`${asked.kind} "${asked.id}" is not part of this campaign`);
  }

  function close() {
    clearTimeout(searchTimer);
    searchSeq++;
    batch(() => {
      peerResults.value = null;
      peerSearching.value = false;
    });
  }

  return {
    peer,
    peerResults,
    peerMore,
    peerSearching,
    peerFailed,
    peerQuery,
    peerActive,

    /** Once the campaign is known: the fundraiser or team the element or the link names, if it is one of its own. */
    async preselect(c: Campaign) {
      const fundraiser = props.fundraiser ?? (props.team ? null : urlPeer(search, "fundraiser"));
      const team = fundraiser ? null : (props.team ?? urlPeer(search, "team"));
      const id = fundraiser ?? team;
      if (!id || !c.peer_fundraising) return;
      pending = { kind: fundraiser ? "fundraiser" : "team", id };
      await lookUp(c);
    },

    /** Asks again for the fundraiser or team whose lookup failed (the picker shows once the campaign is known). */
    retryPeer: () => lookUp(campaign.value!),

    /**
     * Searches at once for the first letter after a pause, then once the donor pauses typing, so
     * each keystroke does not become a request.
     */
    queuePeerSearch(query: string) {
      clearTimeout(searchTimer);
      if (!searchable(query)) return close();
      const paused = Date.now() - typedAt >= PEER_SEARCH_DEBOUNCE_MS;
      typedAt = Date.now();
      if (paused) void searchPeers(query);
      else searchTimer = setTimeout(() => void searchPeers(query), PEER_SEARCH_DEBOUNCE_MS);
    },

    /** Closes the list; an answer still on its way is dropped. */
    closePeerResults: close,

    /** Credits the gift to `choice` (or to no one, the donor's own choice) and closes the list. */
    pick(choice: Peer | null) {
      pending = null;
      // A search still waiting for the pause, or on its way, would open the list again.
      close();
      batch(() => {
        peer.value = choice;
        peerFailed.value = false;
      });
    },

    /** A named fundraiser or team is not looked up yet: the gift waits, nobody is credited by mistake. */
    waiting: () => !!pending,

    /** The peer's part of the request. */
    request(): Pick<DonationRequest, "peer_fundraiser_id" | "peer_fundraiser_team_id"> {
      const selected = peer.value;
      if (selected?.kind === "fundraiser") return { peer_fundraiser_id: selected.id };
      if (selected?.kind === "team") return { peer_fundraiser_team_id: selected.id };
      return {};
    },
  };
}
export type PeerModel = ReturnType<typeof createPeerModel>;
