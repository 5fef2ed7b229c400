/**
 * A campaign's fundraisers and teams as a compact search index: each peer kept once as the JSON
 * the picker receives, and every word of every name in one sorted array, so a search is a
 * binary search and a walk over the words that start with the query, never a scan of the list.
 */
import type { Peer } from "../../contract/api";
import { runInSlices, sortInSteps } from "./sort-in-steps";

/** How many matches one answer carries; the rest are counted. */
export const PEER_PAGE = 20;

/** Words of a query past this many add nothing a donor needs and are ignored. */
const QUERY_WORDS_MAX = 6;

/**
 * The words a name or a query is searched by: lower case, accents off ("José" → "jose"), split
 * at anything that is not a letter or a digit (so markup and punctuation are only separators).
 */
export function searchWords(text: string): string[] {
  // Most names are plain ASCII: no accents to take off (and no garbage made doing it).
  const plain = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize("NFD").replace(/\p{M}+/gu, "");
  return plain
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

/** Peers handled between two steps of an index's build. */
const BUILD_CHUNK = 500;
/** An index built in the background gives the event loop back after this long at most (plus one step). */
const BUILD_SLICE_MS = 5;

/**
 * @example
 * const index = createPeerIndex(peers);
 * index.search("an"); // {rows: ['{"id":"101","name":"Ana Ruiz",…}'], more: 0}
 * index.byId("fundraiser", "101");
 */
export function createPeerIndex(peers: readonly Peer[]): PeerIndex {
  const steps = indexSteps(peers);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same index, built step by step (sorts included) with a pause for the event loop every
 * BUILD_SLICE_MS, so a list of 50,000 never holds the proxy's other requests for long.
 */
export async function buildPeerIndex(peers: Peer[]): Promise<PeerIndex> {
  // The index takes the peers over: each is let go once it is indexed, not at the end.
  return runInSlices(indexSteps(peers.splice(0)), BUILD_SLICE_MS);
}

function* indexSteps(peers: readonly Peer[]): Generator<void, PeerIndex> {
  const sorted: (Peer | undefined)[] = yield* sortInSteps(peers, rank);
  peers = [];
  const count = sorted.length;
  /** Position = rank: the answer's order is the order of positions. */
  const rows: string[] = [];
  /** Each name's words joined by one space, with a space in front: " ana ruiz". */
  const spoken: string[] = [];
  // Every word of every name once per name; a word many names share is one string.
  const shared = new Map<string, string>();
  const allWords: string[] = [];
  const allOwners: number[] = [];
  for (let position = 0; position < count; position++) {
    const peer = sorted[position]!;
    sorted[position] = undefined;
    rows.push(JSON.stringify(peer));
    const words = searchWords(peer.name);
    spoken.push(` ${words.join(" ")}`);
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (words.indexOf(word) !== i) continue;
      let kept = shared.get(word);
      if (kept === undefined) shared.set(word, (kept = word));
      allWords.push(kept);
      allOwners.push(position);
    }
    if (position % BUILD_CHUNK === BUILD_CHUNK - 1) yield;
  }
  shared.clear();
  sorted.length = 0;
  yield;
  // Positions were pushed in order, and the sort is stable: a tie between equal words keeps rank order.
  const order = yield* sortInSteps([...allWords.keys()], (a, b) => {
    const x = allWords[a]!;
    const y = allWords[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  yield;
  const words = Array.from(order, (i) => allWords[i]!);
  const owners = Int32Array.from(order, (i) => allOwners[i]!);
  allWords.length = 0;
  allOwners.length = 0;
  return searchable(count, rows, spoken, words, owners);
}

/** The search over a built index: its parts are read only from here on. */
function searchable(
  count: number,
  rows: readonly string[],
  spoken: readonly string[],
  words: readonly string[],
  owners: Int32Array,
) {
  const ofKindKept = new Map<Peer["kind"], readonly string[]>();
  /** Each peer's position by `${kind}:${id}`: made the first time a wall or a leaderboard asks. */
  let positions: Map<string, number> | undefined;
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

    /** The peers of a kind, as the JSON each is sent as, in the index's order (by name). */
    ofKind(kind: Peer["kind"]): readonly string[] {
      let chosen = ofKindKept.get(kind);
      if (!chosen) {
        const marker = `,"kind":"${kind}",`;
        ofKindKept.set(kind, (chosen = rows.filter((row) => row.includes(marker))));
      }
      return chosen;
    },

    /**
     * A peer's JSON and its place in the index's order, or null when the lists do not show it. By a
     * map of every peer made at the first call: only the wall and the leaderboard ask, many times
     * per read; the donate form's picker, asked once per link, walks the rows (byId) instead.
     */
    positionOf(kind: Peer["kind"], id: string): { row: string; position: number } | null {
      positions ??= new Map(
        rows.map((row, position) => {
          const { id: peerId, kind: peerKind } = JSON.parse(row) as Peer;
          return [`${peerKind}:${peerId}`, position];
        }),
      );
      const position = positions.get(`${kind}:${id}`);
      return position === undefined ? null : { row: rows[position]!, position };
    },

    /**
     * One fundraiser's or team's JSON, or null when the campaign has no such peer. A walk over
     * the rows (under a millisecond for 50,000) rather than a map of every id: asked once per
     * preselecting link and then kept as an answer, it is not worth the index's memory.
     */
    byId(kind: Peer["kind"], id: string): string | null {
      const start = `{"id":${JSON.stringify(id)},`;
      const ofKind = `,"kind":"${kind}",`;
      return rows.find((row) => row.startsWith(start) && row.includes(ofKind)) ?? null;
    },
  };
}
export type PeerIndex = ReturnType<typeof searchable>;
