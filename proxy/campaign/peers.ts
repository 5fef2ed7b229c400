/**
 * The peer picker's data: a campaign's fundraisers and teams, public fields only, without the
 * root "NPO Page" and hidden records (such as the captain the upstream creates for a team
 * that has none). Kept per campaign as a search index (peer-index.ts), loaded once and
 * then refreshed in the background while the last one answers; each answer is at most
 * PEER_PAGE peers, compressed once and kept for the next donor who types the same letters.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import * as zlib from "node:zlib";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Variants } from "../../http/precompressed";
import { isAmount } from "../../contract/patterns";
import type { Campaign, Peer } from "../../contract/api";
import type { UpstreamFundraiser, UpstreamTeam } from "../../contract/upstream";
import { buildPeerIndex, type PeerIndex, type PeerSearch } from "./peer-index";
import type { PeerListStore } from "../store";
import type { UpstreamClient } from "../upstream/client";
import { readJsonRows } from "../upstream/json-rows";

export { PEER_PAGE, searchWords } from "./peer-index";

/** Longest search text the picker sends. */
export const PEER_QUERY_MAX = 100;

function isHidden(record: { hidden?: unknown; is_root?: unknown }): boolean {
  return record.hidden === true || record.is_root === true;
}

/** An upstream total as a decimal string, or null when it is missing or not one. */
const amountOrNull = (value: string | null | undefined): string | null =>
  typeof value === "string" && isAmount(value) ? value : null;

function teamPeer(team: UpstreamTeam): Peer {
  return {
    id: String(team.id),
    name: team.name,
    kind: "team",
    team_id: null,
    team_name: null,
    raised: amountOrNull(team.total_raised),
    goal: amountOrNull(team.team_fundraising_goal),
  };
}

/** A walker, its team's name filled in later (the teams may arrive after it). */
function fundraiserPeer(fundraiser: UpstreamFundraiser): Peer {
  const teamId =
    fundraiser.team_id === undefined || fundraiser.team_id === null ? null : String(fundraiser.team_id);
  return {
    id: String(fundraiser.id),
    name: fundraiser.name,
    kind: "fundraiser",
    team_id: teamId,
    team_name: null,
    raised: amountOrNull(fundraiser.total_raised),
    goal: null,
  };
}

function withTeamNames(peers: Peer[], teamNames: ReadonlyMap<string, string>): Peer[] {
  for (const peer of peers) if (peer.team_id !== null) peer.team_name = teamNames.get(peer.team_id) ?? null;
  return peers;
}

/** Upstream records → the public Peer shape (with what each has raised), sorted by name. */
export function toPeers(fundraisers: readonly UpstreamFundraiser[], teams: readonly UpstreamTeam[]): Peer[] {
  const teamNames = new Map(teams.map((team) => [String(team.id), team.name]));
  const peers = withTeamNames(
    [
      ...fundraisers.filter((fundraiser) => !isHidden(fundraiser)).map(fundraiserPeer),
      ...teams.filter((team) => !isHidden(team as { hidden?: unknown })).map(teamPeer),
    ],
    teamNames,
  );
  return peers.toSorted((a, b) => a.name.localeCompare(b.name, "en") || a.kind.localeCompare(b.kind));
}

/** How long one load of a campaign's lists may take (a national walk's 50,000 walkers stream in well under it). */
const LOAD_TIMEOUT_MS = 60_000;

/**
 * A campaign's peers, read from the upstream's two lists as they stream in, a row at a time
 * (never a whole list in one buffer): each row kept only as its public fields.
 */
export async function loadPeers(upstream: UpstreamClient, campaign: Campaign): Promise<Peer[]> {
  const peers: Peer[] = [];
  const teamNames = new Map<string, string>();
  const options = { timeoutMs: LOAD_TIMEOUT_MS };
  await Promise.all([
    upstream.eachTeam(
      campaign.shortcode,
      campaign.keyword,
      (team) => {
        teamNames.set(String(team.id), team.name);
        if (!isHidden(team as { hidden?: unknown })) peers.push(teamPeer(team));
      },
      options,
    ),
    upstream.eachFundraiser(
      campaign.shortcode,
      campaign.keyword,
      (fundraiser) => {
        if (!isHidden(fundraiser)) peers.push(fundraiserPeer(fundraiser));
      },
      options,
    ),
  ]);
  return withTeamNames(peers, teamNames);
}

/** Answers kept per campaign (by query), most recently used last. */
const ANSWERS_KEPT = 500;

/** What the route sends: the body in each coding, each with its ETag. */
export type PeerAnswer = Variants;

/**
 * `{"peers":[…],"more":n}` (`more` only when some are left out: the shape older widgets read),
 * plain, Brotli and gzip. Made per new answer, so at the levels that take a fraction of a
 * millisecond for a few kilobytes (Brotli 11 took 4 ms an answer, for some 20 % fewer bytes);
 * each coding's ETag is the plain body's hash and the coding's name.
 */
function answerVariants({ rows, more }: PeerSearch): Variants {
  const body = new Uint8Array(
    Buffer.from(`{"peers":[${rows.join(",")}]${more > 0 ? `,"more":${more}` : ""}}`),
  );
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 22);
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gzip = gzipSync(body, { level: 6 });
  return {
    identity: { body, encoding: null, etag: `"${hash}"` },
    encoded: {
      br: { body: new Uint8Array(br), encoding: "br", etag: `"${hash}-br"` },
      gzip: { body: new Uint8Array(gzip), encoding: "gzip", etag: `"${hash}-gz"` },
    },
  };
}

/** What to answer: a search, the first page, or one peer by id. */
export type PeerQuestion =
  | { kind: "search"; query: string }
  | { kind: "first" }
  | { kind: "one"; peer: Peer["kind"]; id: string };

interface Entry {
  index: PeerIndex | null;
  /** The store's version of the list the index holds (null: read by this proxy without a store). */
  version: number | null;
  loadedAt: number;
  /** When a load may start again (after a success: the TTL; after a failure: a back-off). */
  nextLoadAt: number;
  loading: Promise<PeerIndex> | null;
  answers: Map<string, PeerAnswer>;
}

/** The store proxies share their reads through, and this proxy's name for its leases. */
export interface SharedPeerLists {
  store: PeerListStore;
  owner: string;
}

/** How soon to look again while another proxy reads the lists. */
const OTHER_READER_WAIT_MS = 1000;

/** What a load found to do: nothing new yet (look again at `nextAt`), or a list to index. */
type Loaded =
  | { kind: "keep"; nextAt: number }
  | { kind: "list"; peers: Peer[]; version: number | null; readAt: number };

const gzipAsync = promisify(zlib.gzip);
const gunzipAsync = promisify(zlib.gunzip);
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Peers turned into JSON, or bytes of JSON read back, between two pauses of the event loop. */
const CODEC_PEERS = 1000;
const CODEC_BYTES = 64 * 1024;
/** A peer's JSON is a few hundred bytes: one of more than this is not a list the proxy wrote. */
const PEER_JSON_MAX = 64 * 1024;

/**
 * The list as the store keeps it: its JSON array, gzipped. Made a thousand peers at a time and
 * compressed off the event loop (zlib's threads): 50,000 peers in one JSON.stringify and one
 * gzipSync held the proxy 0.2-1.5 s on a loaded machine.
 */
async function encodePeers(peers: readonly Peer[]): Promise<Uint8Array> {
  const parts: Buffer[] = [Buffer.from("[")];
  for (let at = 0; at < peers.length; at += CODEC_PEERS) {
    if (at > 0) await yieldToRequests();
    const json = peers.slice(at, at + CODEC_PEERS).map((peer) => JSON.stringify(peer));
    parts.push(Buffer.from(`${at > 0 ? "," : ""}${json.join(",")}`));
  }
  parts.push(Buffer.from("]"));
  return new Uint8Array(await gzipAsync(Buffer.concat(parts)));
}

/** The list back from the store: unzipped off the event loop, parsed 64 KB at a time. */
async function decodePeers(body: Uint8Array): Promise<Peer[]> {
  const json = await gunzipAsync(body);
  const peers: Peer[] = [];
  const reader = readJsonRows({
    path: [],
    onRow: (peer) => peers.push(peer as Peer),
    maxRowBytes: PEER_JSON_MAX,
  });
  for (let at = 0; at < json.length; at += CODEC_BYTES) {
    if (at > 0) await yieldToRequests();
    reader.write(json.subarray(at, at + CODEC_BYTES));
  }
  reader.end();
  return peers;
}

/**
 * @example
 * const peers = createPeersCache(upstream, 60);
 * const answer = await peers.answer(campaign, { kind: "search", query: "ana" });
 * // answer.identity.body: {"peers":[{"id":"101","name":"Ana Ruiz",…}]}
 */
export function createPeersCache(
  upstream: UpstreamClient,
  ttlS: number,
  now: () => number = Date.now,
  onStale?: (campaign: Campaign, error: unknown) => void,
  /** Proxies on one store read each campaign's lists once per interval between them. */
  shared?: SharedPeerLists,
) {
  const entries = new Map<string, Entry>();
  const ttlMs = ttlS * 1000;

  /**
   * With a shared store: the list another proxy read within the interval, when there is one;
   * else this proxy reads it, if it gets the lease (another proxy reading now: wait for theirs,
   * unless there is nothing to answer from). A store that fails is read around, never waited on.
   */
  async function read(campaign: Campaign, id: string, entry: Entry): Promise<Loaded> {
    if (shared) {
      try {
        const latest = await shared.store.peerSnapshotVersion(id);
        const fresh = latest !== null && now() - latest.readAt < ttlMs;
        if (fresh && latest.version === entry.version && entry.index) {
          return { kind: "keep", nextAt: latest.readAt + ttlMs };
        }
        const snapshot = fresh ? await shared.store.peerSnapshot(id) : null;
        if (snapshot) return { kind: "list", peers: await decodePeers(snapshot.body), ...snapshot };
        const mine = await shared.store.leasePeerRead(id, shared.owner, LOAD_TIMEOUT_MS);
        if (!mine && entry.index) return { kind: "keep", nextAt: now() + OTHER_READER_WAIT_MS };
      } catch {
        // The store is away: this proxy reads the lists for itself.
      }
    }
    const readAt = now();
    const peers = await loadPeers(upstream, campaign);
    const version = shared
      ? await encodePeers(peers)
          .then((body) => shared.store.savePeerSnapshot(id, readAt, body))
          .catch(() => null)
      : null;
    return { kind: "list", peers, version, readAt };
  }

  function load(campaign: Campaign, id: string, entry: Entry): Promise<PeerIndex> {
    entry.loading ??= read(campaign, id, entry)
      .then(async (loaded) => {
        if (loaded.kind === "keep") {
          entry.nextLoadAt = loaded.nextAt;
          return entry.index!;
        }
        const index = await buildPeerIndex(loaded.peers);
        Object.assign(entry, {
          index,
          version: loaded.version,
          loadedAt: loaded.readAt,
          nextLoadAt: loaded.readAt + ttlMs,
          answers: new Map(),
        });
        return index;
      })
      .catch((error: unknown) => {
        // A failed load is not kept: with a list to answer from, the next try waits a while;
        // without one, the next request tries again.
        if (entry.index) {
          entry.nextLoadAt = now() + Math.max(ttlMs, 5000);
          onStale?.(campaign, error);
        }
        throw error;
      })
      .finally(() => {
        entry.loading = null;
      });
    return entry.loading;
  }

  async function indexOf(campaign: Campaign): Promise<Entry & { index: PeerIndex }> {
    const id = `${campaign.shortcode}/${campaign.keyword}`;
    let entry = entries.get(id);
    if (!entry) {
      entry = { index: null, version: null, loadedAt: 0, nextLoadAt: 0, loading: null, answers: new Map() };
      entries.set(id, entry);
    }
    if (!entry.index) await load(campaign, id, entry);
    else if (!entry.loading && now() >= entry.nextLoadAt) load(campaign, id, entry).catch(() => undefined);
    return entry as Entry & { index: PeerIndex };
  }

  return {
    /** The index of a campaign's peers: loaded on first use, then refreshed in the background. */
    async get(campaign: Campaign): Promise<PeerIndex> {
      return (await indexOf(campaign)).index;
    },

    /** The answer to a question, made (and compressed) once per loaded list and kept; its ETags are of its bytes. */
    async answer(campaign: Campaign, question: PeerQuestion): Promise<PeerAnswer> {
      const entry = await indexOf(campaign);
      const key =
        question.kind === "search"
          ? `q:${question.query}`
          : question.kind === "first"
            ? "first"
            : `${question.peer}:${question.id}`;
      const kept = entry.answers.get(key);
      if (kept) {
        entry.answers.delete(key);
        entry.answers.set(key, kept);
        return kept;
      }
      const { index } = entry;
      let found: PeerSearch;
      if (question.kind === "search") found = index.search(question.query);
      else if (question.kind === "first") found = index.first();
      else {
        const row = index.byId(question.peer, question.id);
        found = { rows: row === null ? [] : [row], more: 0 };
      }
      const answer = answerVariants(found);
      entry.answers.set(key, answer);
      if (entry.answers.size > ANSWERS_KEPT) entry.answers.delete(entry.answers.keys().next().value!);
      return answer;
    },
  };
}
