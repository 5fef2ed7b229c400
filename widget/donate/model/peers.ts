import { batch, signal, type ReadonlySignal } from "@preact/signals-core";
import type { Campaign, DonationRequest, Peer } from "../../../contract/api";
import { PEER_ID_PATTERN } from "../../../contract/patterns";
import type { ApiClient } from "../../shared/api-client";
import { warn, type DonateProps } from "../attributes";
import { readPeers } from "../responses";

/** Wait this long after the last keystroke before searching fundraisers and teams. */
export const PEER_SEARCH_DEBOUNCE_MS = 200;

/** A peer id from the host page's URL, if it is a well-formed one. */
function urlPeer(search: string, name: "fundraiser" | "team"): string | null {
  const value = new URLSearchParams(search).get(name);
  return value && PEER_ID_PATTERN.test(value) ? value : null;
}

/**
 * The fundraiser or team a gift is credited to: preselected by the element (`fundraiser`,
 * `team`) or the page's link (`?fundraiser=`), or found by the donor in a search that waits
 * for a pause in typing and keeps only the latest answer.
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
  const peerSearching = signal(false);
  /** The picker's search box, and the option its arrow keys are on (-1: none). */
  const peerQuery = signal("");
  const peerActive = signal(-1);
  let searchSeq = 0;
  let searchTimer: ReturnType<typeof setTimeout> | undefined;

  async function fetchPeers(c: Campaign, query: string): Promise<Peer[] | null> {
    const path = `/v1/campaigns/${encodeURIComponent(c.shortcode)}/${encodeURIComponent(c.keyword)}/peers`;
    const result = await api.get<unknown>(`${path}?${new URLSearchParams({ q: query })}`);
    return result.kind === "ok" ? readPeers(result.data) : null;
  }

  /** Searches the campaign's fundraisers and teams; only the latest answer is kept. */
  async function searchPeers(query: string) {
    const c = campaign.value;
    if (!c) return;
    const seq = ++searchSeq;
    peerSearching.value = true;
    const found = await fetchPeers(c, query.trim());
    if (seq !== searchSeq) return;
    batch(() => {
      peerResults.value = found ?? [];
      peerSearching.value = false;
    });
  }

  return {
    peer,
    peerResults,
    peerSearching,
    peerQuery,
    peerActive,

    /** Once the campaign is known: the fundraiser or team the element or the link names, if it is one of its own. */
    async preselect(c: Campaign) {
      const fundraiser = props.fundraiser ?? (props.team ? null : urlPeer(search, "fundraiser"));
      const team = fundraiser ? null : (props.team ?? urlPeer(search, "team"));
      const id = fundraiser ?? team;
      if (!id || !c.peer_fundraising) return;
      const kind = fundraiser ? "fundraiser" : "team";
      const found = await fetchPeers(c, "");
      const match = found?.find((p) => p.id === id && p.kind === kind);
      if (match) peer.value = match;
      else warn(`${kind} "${id}" is not part of this campaign`);
    },

    /** Searches once the donor pauses typing, so each keystroke does not become a request. */
    queuePeerSearch(query: string) {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => void searchPeers(query), PEER_SEARCH_DEBOUNCE_MS);
    },

    /** Closes the list; an answer still on its way is dropped. */
    closePeerResults() {
      clearTimeout(searchTimer);
      searchSeq++;
      batch(() => {
        peerResults.value = null;
        peerSearching.value = false;
      });
    },

    /** Credits the gift to `choice` (or to no one) and closes the list. */
    pick(choice: Peer | null) {
      batch(() => {
        peer.value = choice;
        peerResults.value = null;
      });
    },

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
