import type { LeaderboardResponse, LiveMessage, Peer, WallEntry, WallResponse } from "../../contract/api";
import { isAmount, PEER_KINDS } from "../../contract/patterns";
import { arrayOf, isBoolean, isText, nullable, oneOf, optional, readShape } from "./checks";
import type { Check } from "./checks";
import { readProgress } from "./read-progress";
import { LEADERBOARD_KINDS } from "../../contract/gala";

/*
 * The wall's, the live feed's and the leaderboard's answers, read as contract/api.ts's schemas
 * read them, by hand (zod's parsers would be most of these chunks). widget/readers.test.ts holds
 * each to its schema.
 */
const ENTRY = {
  id: isText,
  name: isText,
  amount: isAmount,
  fundraiser_id: nullable(isText),
  team_id: nullable(isText),
  at: isText,
  credited: nullable(isText),
};
const isEntry: Check = (value) => readShape(value, ENTRY) !== null;

export const readWallEntry = (body: unknown) => readShape<WallEntry>(body, ENTRY);

export function readWall(body: unknown): WallResponse | null {
  const read = readShape<WallResponse>(body, {
    entries: arrayOf(isEntry),
    currency: isText,
    updated_at: isText,
  });
  return read && { ...read, entries: read.entries.map((entry) => readWallEntry(entry)!) };
}

const PEER = {
  id: isText,
  name: isText,
  kind: oneOf(PEER_KINDS),
  team_id: nullable(isText),
  team_name: nullable(isText),
  raised: nullable(isAmount),
  goal: nullable(isAmount),
};
const isPeer: Check = (value) => readShape(value, PEER) !== null;
const readPeer = (peer: unknown) => readShape<Peer>(peer, PEER)!;

export function readLeaderboard(body: unknown): LeaderboardResponse | null {
  const read = readShape<LeaderboardResponse>(body, {
    of: oneOf(LEADERBOARD_KINDS),
    currency: isText,
    leaders: arrayOf(isPeer),
  });
  return (
    read && {
      of: read.of,
      currency: read.currency,
      leaders: read.leaders.map(readPeer),
    }
  );
}

export function readLive(body: unknown): LiveMessage | null {
  const read = readShape<LiveMessage>(body, {
    progress: (value) => readProgress(value) !== null,
    wall: arrayOf(isEntry),
    stale: isBoolean,
    leaders: optional(arrayOf(isPeer)),
  });
  return (
    read && {
      progress: readProgress(read.progress)!,
      wall: read.wall.map((entry) => readWallEntry(entry)!),
      stale: read.stale,
      ...(read.leaders && { leaders: read.leaders.map(readPeer) }),
    }
  );
}
