/**
 * Gala night's feed, as the routes and the live stream send it: the progress cache's figures and
 * newest gifts (one report read for every reader), each gift with the name of the fundraiser or
 * team it credits, and the leaderboards summed from the same read (proxy/campaign/leaderboard.ts), with
 * the peers' names and goals from the peer lists the picker reads already. Worked out once per
 * read and peer list, so a thousand screens cost one lookup.
 */
import type { Campaign, Peer, Progress, WallEntry as PublicWallEntry } from "../../contract/api";
import { rankLeaders } from "./leaderboard";
import type { PeerIndex } from "./peer-index";
import type { createPeersCache } from "./peers";
import type { ProgressCache } from "./progress";

/** A wall entry as sent: the credited peer's public name beside its id (null: none, or not known). */
export type SentWallEntry = PublicWallEntry & { credited: string | null };

/** One read's figures as every reader gets them; each array stays the same object until the next read or list. */
export interface GalaFigures {
  progress: Progress;
  wall: SentWallEntry[];
  /** The teams or the fundraisers by raised (empty where the campaign has no peer fundraising). */
  leaders(kind: Peer["kind"]): Peer[];
  read_at: number;
  /** The last read failed: these are the last good figures. */
  failing: boolean;
}

interface Made {
  readAt: number;
  index: PeerIndex | null;
  wall: SentWallEntry[];
  leaders: Map<Peer["kind"], Peer[]>;
}

const nameIn = (index: PeerIndex, kind: Peer["kind"], id: string | null): string | null => {
  const found = id === null ? null : index.positionOf(kind, id);
  return found === null ? null : (JSON.parse(found.row) as Peer).name;
};

export function createGalaFeed(deps: {
  progress: Pick<ProgressCache, "live">;
  peers: Pick<ReturnType<typeof createPeersCache>, "get">;
}) {
  const kept = new Map<string, Made>();
  return {
    async live(campaign: Campaign): Promise<GalaFigures> {
      const figures = await deps.progress.live(campaign);
      // The peer lists are a help here, not a need: without them the gifts go out unnamed.
      const index = campaign.peer_fundraising ? await deps.peers.get(campaign).catch(() => null) : null;
      const key = `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
      let made = kept.get(key);
      if (!made || made.readAt !== figures.read_at || made.index !== index) {
        const wall = figures.wall.map((entry) => ({
          ...entry,
          credited: index
            ? (nameIn(index, "fundraiser", entry.fundraiser_id) ?? nameIn(index, "team", entry.team_id))
            : null,
        }));
        kept.set(key, (made = { readAt: figures.read_at, index, wall, leaders: new Map() }));
      }
      const { leaders } = made;
      return {
        progress: figures.progress,
        wall: made.wall,
        read_at: figures.read_at,
        failing: figures.failing,
        leaders(kind) {
          let ranked = leaders.get(kind);
          if (!ranked) leaders.set(kind, (ranked = index ? rankLeaders(index, figures.credits, kind) : []));
          return ranked;
        },
      };
    },
  };
}

export type GalaFeed = ReturnType<typeof createGalaFeed>;
