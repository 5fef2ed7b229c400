/**
 * The peer picker's data: a campaign's fundraisers and teams, public fields only, without the
 * root "NPO Page" and hidden records (such as the captain the upstream creates for a team
 * that has none). Cached per campaign; callers during a load share it.
 */
import { isAmount } from "../contract/patterns";
import type { Campaign, Peer } from "../contract/api";
import type { UpstreamFundraiser, UpstreamTeam } from "../contract/upstream";
import type { UpstreamClient } from "./upstream/client";

/** Longest search text the picker sends. */
export const PEER_QUERY_MAX = 100;

function isHidden(record: { hidden?: unknown; is_root?: unknown }): boolean {
  return record.hidden === true || record.is_root === true;
}

/** An upstream total as a decimal string, or null when it is missing or not one. */
const amountOrNull = (value: string | null | undefined): string | null =>
  typeof value === "string" && isAmount(value) ? value : null;

/** Upstream records → the public Peer shape (with what each has raised), sorted by name. */
export function toPeers(fundraisers: readonly UpstreamFundraiser[], teams: readonly UpstreamTeam[]): Peer[] {
  const visibleTeams = teams.filter((team) => !isHidden(team as { hidden?: unknown }));
  const teamNames = new Map(teams.map((team) => [String(team.id), team.name]));
  const peers: Peer[] = [
    ...fundraisers
      .filter((fundraiser) => !isHidden(fundraiser))
      .map((fundraiser): Peer => {
        const teamId =
          fundraiser.team_id === undefined || fundraiser.team_id === null ? null : String(fundraiser.team_id);
        return {
          id: String(fundraiser.id),
          name: fundraiser.name,
          kind: "fundraiser",
          team_id: teamId,
          team_name: teamId === null ? null : (teamNames.get(teamId) ?? null),
          raised: amountOrNull(fundraiser.total_raised),
          goal: null,
        };
      }),
    ...visibleTeams.map((team): Peer => ({
      id: String(team.id),
      name: team.name,
      kind: "team",
      team_id: null,
      team_name: null,
      raised: amountOrNull(team.total_raised),
      goal: amountOrNull(team.team_fundraising_goal),
    })),
  ];
  return peers.toSorted((a, b) => a.name.localeCompare(b.name, "en") || a.kind.localeCompare(b.kind));
}

/** Peers whose name holds the query, ignoring case. */
export function filterPeers(peers: readonly Peer[], query: string): Peer[] {
  const needle = query.trim().toLocaleLowerCase("en");
  if (needle === "") return [...peers];
  return peers.filter((peer) => peer.name.toLocaleLowerCase("en").includes(needle));
}

/**
 * @example
 * const cache = createPeersCache(upstream, 60);
 * const peers = await cache.get(campaign);
 */
export function createPeersCache(upstream: UpstreamClient, ttlS: number, now: () => number = Date.now) {
  const entries = new Map<string, { expires: number; peers: Promise<Peer[]> }>();
  return {
    get(campaign: Campaign): Promise<Peer[]> {
      const id = `${campaign.shortcode}/${campaign.keyword}`;
      const cached = entries.get(id);
      if (cached && cached.expires > now()) return cached.peers;
      const peers = Promise.all([
        upstream.fundraisers(campaign.shortcode, campaign.keyword),
        upstream.teams(campaign.shortcode, campaign.keyword),
      ]).then(([fundraisers, teams]) => toPeers(fundraisers, teams));
      entries.set(id, { expires: now() + ttlS * 1000, peers });
      // A failed load is not cached: the next caller tries again.
      peers.catch(() => {
        if (entries.get(id)?.peers === peers) entries.delete(id);
      });
      return peers;
    },
  };
}
