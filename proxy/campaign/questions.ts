/**
 * What a campaign's public read asks, read from its path and query: the campaign (one this proxy
 * serves), a list's limit, a leaderboard's kind, a peers search. Anything else is a 400 or 404
 * problem naming it; the routes (routes/campaigns.ts, routes/wall.ts) only hand these over.
 */
import type { Campaign } from "../../contract/api";
import { LEADERBOARD_KINDS, type LeaderboardKind } from "../../contract/gala";
import { PEER_ID_PATTERN } from "../../contract/patterns";
import type { CampaignDirectory } from "./directory";
import { ProblemError } from "../problem";
import { PEER_QUERY_MAX, type PeerQuestion } from "./peers";

/** The campaign a path names, when this proxy serves it. */
export function servedCampaign(directory: CampaignDirectory, shortcode: string, keyword: string): Campaign {
  const campaign = directory.byKeyword(shortcode, keyword);
  // The path's text is not echoed back: it is whatever the caller typed.
  if (!campaign) throw new ProblemError("campaign_not_served", "This campaign is not served here.");
  return campaign;
}

/** The campaign named by its event (`event_id` and `event_type`, both required), when this proxy serves it. */
export function campaignOfEvent(
  directory: CampaignDirectory,
  eventId: string | undefined,
  eventType: string | undefined,
): Campaign {
  if (!eventId || !eventType) {
    throw new ProblemError("validation_failed", "Name the campaign by event_id and event_type.", {
      ...(eventId ? {} : { event_id: ["Required."] }),
      ...(eventType ? {} : { event_type: ["Required."] }),
    });
  }
  const campaign = directory.byEvent(eventId, eventType);
  if (!campaign) throw new ProblemError("campaign_not_served", "This campaign is not served here.");
  return campaign;
}

/** `limit`: 1 to max, `fallback` when absent; anything else is a 400 naming it. */
export function limitOf(value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value === "") return fallback;
  const limit = /^\d{1,3}$/.test(value) ? Number(value) : 0;
  if (limit < 1 || limit > max) {
    throw new ProblemError("validation_failed", "The limit is not one this list takes.", {
      limit: [`A whole number from 1 to ${max}.`],
    });
  }
  return limit;
}

/** `of`: teams or fundraisers, `fallback` when absent; anything else is a 400 naming it. */
export function kindOf(value: string | undefined, fallback: LeaderboardKind): LeaderboardKind;
export function kindOf(value: string | undefined, fallback: null): LeaderboardKind | null;
export function kindOf(value: string | undefined, fallback: LeaderboardKind | null): LeaderboardKind | null {
  if (value === undefined || value === "") return fallback;
  if ((LEADERBOARD_KINDS as readonly string[]).includes(value)) return value as LeaderboardKind;
  throw new ProblemError("validation_failed", "A leaderboard is of teams or of fundraisers.", {
    of: ["teams or fundraisers."],
  });
}

/**
 * What a peers request asks: `q` (at most PEER_QUERY_MAX characters), or one `fundraiser` or
 * `team` by id, or (nothing) the first page. Anything else is a 400 naming the parameter.
 */
export function peerQuestion(params: Record<string, string>): PeerQuestion {
  const { q, fundraiser, team } = params;
  const asked = [q, fundraiser, team].filter((value) => value !== undefined).length;
  if (asked > 1) {
    throw new ProblemError(
      "validation_failed",
      "Ask for a search (q), a fundraiser or a team, one at a time.",
      {
        q: ["Use q, fundraiser or team alone."],
      },
    );
  }
  if (fundraiser !== undefined || team !== undefined) {
    const [name, id] =
      fundraiser !== undefined ? (["fundraiser", fundraiser] as const) : (["team", team!] as const);
    if (!PEER_ID_PATTERN.test(id)) {
      throw new ProblemError("validation_failed", `That is not a ${name} id.`, {
        [name]: ["1 to 64 letters, digits, - or _."],
      });
    }
    return { kind: "one", peer: name, id };
  }
  if (q === undefined || q === "") return { kind: "first" };
  if (q.length > PEER_QUERY_MAX) {
    throw new ProblemError("validation_failed", "The search text is too long.", {
      q: [`At most ${PEER_QUERY_MAX} characters.`],
    });
  }
  return { kind: "search", query: q };
}
