/**
 * The wall as the routes and the live stream send it: the progress cache's newest gifts (one
 * report read for every reader) with the name of the fundraiser or team each credits, from the
 * peer lists the picker reads already. Worked out once per read and peer list, so a thousand
 * screens cost one lookup.
 */
import type { Campaign, WallEntry as PublicWallEntry } from "../contract/api";
import type { PeerIndex } from "./peer-index";
import type { createPeersCache } from "./peers";
import type { LiveFigures, ProgressCache } from "./progress";

/** A wall entry as sent: the credited peer's public name beside its id (null: none, or not known). */
export type SentWallEntry = PublicWallEntry & { credited: string | null };
export type SentFigures = Omit<LiveFigures, "wall"> & { wall: SentWallEntry[] };

const nameIn = (index: PeerIndex, kind: "fundraiser" | "team", id: string | null): string | null => {
  if (id === null) return null;
  const row = index.byId(kind, id);
  return row === null ? null : (JSON.parse(row) as { name: string }).name;
};

export function createWallFeed(deps: {
  progress: Pick<ProgressCache, "live">;
  peers: Pick<ReturnType<typeof createPeersCache>, "get">;
}) {
  const kept = new Map<string, { readAt: number; index: PeerIndex | null; wall: SentWallEntry[] }>();
  return {
    /** What progress.live() gives, each entry with `credited`; the same array until a new read or list. */
    async live(campaign: Campaign): Promise<SentFigures> {
      const figures = await deps.progress.live(campaign);
      // The peer lists are a help here, not a need: without them the entries go out unnamed.
      const index = campaign.peer_fundraising ? await deps.peers.get(campaign).catch(() => null) : null;
      const key = `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
      const last = kept.get(key);
      if (last && last.readAt === figures.read_at && last.index === index)
        return { ...figures, wall: last.wall };
      const wall = figures.wall.map((entry) => ({
        ...entry,
        credited: index
          ? (nameIn(index, "fundraiser", entry.fundraiser_id) ?? nameIn(index, "team", entry.team_id))
          : null,
      }));
      kept.set(key, { readAt: figures.read_at, index, wall });
      return { ...figures, wall };
    },
  };
}

export type WallFeed = ReturnType<typeof createWallFeed>;
