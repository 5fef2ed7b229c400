/**
 * A campaign's fundraisers and teams as a compact search index: each peer kept once as the JSON
 * the picker receives, and every word of every name in one sorted array, so a search is a
 * binary search and a walk over the words that start with the query, never a scan of the list.
 */
import type { Peer } from "../contract/api";

/** How many matches one answer carries; the rest are counted. */
export const PEER_PAGE = 20;

/** Words of a query past this many add nothing a donor needs and are ignored. */
const QUERY_WORDS_MAX = 6;

/**
 * The words a name or a query is searched by: lower case, accents off ("José" → "jose"), split
 * at anything that is not a letter or a digit (so markup and punctuation are only separators).
 */
export function searchWords(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLocaleLowerCase("en")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Teams first, then by name (as a person reads it), then by kind and id so the order is total. */
function rank(a: Peer, b: Peer): number {
  if (a.kind !== b.kind) return a.kind === "team" ? -1 : 1;
  return a.name.localeCompare(b.name, "en") || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export interface PeerSearch {
  /** The JSON of each peer shown, best first. */
  rows: string[];
  /** How many more peers match than are shown. */
  more: number;
}

/**
 * @example
 * const index = createPeerIndex(peers);
 * index.search("an"); // {rows: ['{"id":"101","name":"Ana Ruiz",…}'], more: 0}
 * index.byId("fundraiser", "101");
 */
export function createPeerIndex(peers: readonly Peer[]) {
  const sorted = peers.toSorted(rank);
  const count = sorted.length;
  /** Position = rank: the answer's order is the order of positions. */
  const rows = sorted.map((peer) => JSON.stringify(peer));
  /** Each name's words joined by one space, with a space in front: " ana ruiz". */
  const spoken = sorted.map((peer) => ` ${searchWords(peer.name).join(" ")}`);
  const positions = new Map<string, number>();
  sorted.forEach((peer, position) => positions.set(`${peer.kind}:${peer.id}`, position));

  const entries: { word: string; position: number }[] = [];
  spoken.forEach((text, position) => {
    for (const word of new Set(text.split(" "))) if (word) entries.push({ word, position });
  });
  entries.sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : a.position - b.position));
  const words = entries.map((entry) => entry.word);
  const owners = Int32Array.from(entries, (entry) => entry.position);
  entries.length = 0;
  /** Which search last saw each peer (a peer with two words that match is counted once). */
  const seen = new Uint32Array(count);
  let searchNumber = 0;

  /** The first word not before `prefix`. */
  function lowerBound(prefix: string): number {
    let low = 0;
    let high = words.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (words[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  return {
    size: count,

    /**
     * Peers every word of whose query starts a word of their name ("an ru" finds "Ana Ruiz"),
     * best first: teams, then by name. A query without a letter or digit finds no one.
     */
    search(query: string): PeerSearch {
      const wanted = [...new Set(searchWords(query))].slice(0, QUERY_WORDS_MAX);
      if (wanted.length === 0) return { rows: [], more: 0 };
      // The longest word has the fewest names starting with it; the others are checked per peer.
      const probe = wanted.reduce((a, b) => (b.length > a.length ? b : a));
      const others = wanted.filter((word) => word !== probe).map((word) => ` ${word}`);
      searchNumber = (searchNumber + 1) >>> 0 || 1;
      const best: number[] = [];
      let matches = 0;
      for (let i = lowerBound(probe); i < words.length && words[i]!.startsWith(probe); i++) {
        const position = owners[i]!;
        if (seen[position] === searchNumber) continue;
        seen[position] = searchNumber;
        if (!others.every((word) => spoken[position]!.includes(word))) continue;
        matches++;
        if (best.length < PEER_PAGE) best.push(position);
        else if (position < best[PEER_PAGE - 1]!) best[PEER_PAGE - 1] = position;
        else continue;
        best.sort((a, b) => a - b);
      }
      return { rows: best.map((position) => rows[position]!), more: matches - best.length };
    },

    /** The first PEER_PAGE peers (teams first), for a list opened before anything is typed. */
    first(): PeerSearch {
      return { rows: rows.slice(0, PEER_PAGE), more: Math.max(0, count - PEER_PAGE) };
    },

    /** One fundraiser's or team's JSON, or null when the campaign has no such peer. */
    byId(kind: Peer["kind"], id: string): string | null {
      const position = positions.get(`${kind}:${id}`);
      return position === undefined ? null : rows[position]!;
    },
  };
}
export type PeerIndex = ReturnType<typeof createPeerIndex>;
