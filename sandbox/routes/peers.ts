/** GET /api/v2/fundraisers and GET /api/v2/teams (session token), with totals raised. */
import { Hono } from "hono";
import * as z from "zod/mini";
import { fromCents } from "../../contract/money";
import { requireToken } from "../auth";
import { ApiError, jsonListResponse, type SandboxEnv, type SandboxRuntime, validate } from "../http";
import type { Account, Keyword, Ledger } from "../ledger";

const PeerQuerySchema = z.strictObject({
  shortcode: z.optional(z.string().check(z.maxLength(32))),
  keyword: z.optional(z.string().check(z.maxLength(32))),
  keyword_id: z.optional(z.string().check(z.maxLength(64))),
  /** Part of a name, matched without case. */
  q: z.optional(z.string().check(z.maxLength(100))),
});
type PeerQuery = z.infer<typeof PeerQuerySchema>;

/** The account's keywords the query selects; 404 for a keyword the account does not have. */
function selectKeywords(ledger: Ledger, account: Account, query: PeerQuery): Map<string, Keyword> {
  if ((query.shortcode === undefined) !== (query.keyword === undefined)) {
    const missing = query.shortcode === undefined ? "shortcode" : "keyword";
    throw new ApiError(400, "validation_failed", `${missing}: shortcode and keyword go together.`, {
      [missing]: ["shortcode and keyword go together."],
    });
  }
  let keywords = ledger.keywords(account.id);
  if (query.shortcode !== undefined && query.keyword !== undefined) {
    const found = ledger.keywordByTarget(account.id, query.shortcode, query.keyword);
    if (!found)
      throw new ApiError(
        404,
        "keyword_not_found",
        `No keyword ${query.keyword} on shortcode ${query.shortcode}.`,
      );
    keywords = keywords.filter((keyword) => keyword.id === found.id);
  }
  if (query.keyword_id !== undefined) {
    if (!ledger.keywordById(account.id, query.keyword_id)) {
      throw new ApiError(404, "keyword_not_found", `No keyword with id ${query.keyword_id}.`);
    }
    keywords = keywords.filter((keyword) => keyword.id === query.keyword_id);
  }
  return new Map(keywords.map((keyword) => [keyword.id, keyword]));
}

const nameMatches = (name: string, q: string | undefined) =>
  q === undefined || name.toLowerCase().includes(q.trim().toLowerCase());

export function peerRoutes(runtime: SandboxRuntime): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  const session = requireToken(runtime, "session");

  app.get("/api/v2/fundraisers", session, (c) => {
    const account = c.get("account");
    const query = validate(PeerQuerySchema, c.req.query());
    const keywords = selectKeywords(runtime.ledger, account, query);
    const totals = runtime.ledger.totals(account.id).fundraisers;
    const fundraisers = runtime.ledger
      .fundraisers(account.id)
      .filter((fundraiser) => keywords.has(fundraiser.keywordId) && nameMatches(fundraiser.name, query.q));
    return jsonListResponse("fundraisers", fundraisers, (fundraiser) => {
      const keyword = keywords.get(fundraiser.keywordId)!;
      const total = totals.get(fundraiser.id);
      return {
        id: fundraiser.id,
        name: fundraiser.name,
        keyword_id: fundraiser.keywordId,
        shortcode: keyword.shortcode,
        keyword: keyword.keyword,
        team_id: fundraiser.teamId,
        is_root: fundraiser.isRoot,
        hidden: fundraiser.hidden,
        total_raised: fromCents(total?.cents ?? 0),
        donation_count: total?.count ?? 0,
      };
    });
  });

  app.get("/api/v2/teams", session, (c) => {
    const account = c.get("account");
    const query = validate(PeerQuerySchema, c.req.query());
    const keywords = selectKeywords(runtime.ledger, account, query);
    const totals = runtime.ledger.totals(account.id).teams;
    const members = new Map<string, number>();
    for (const fundraiser of runtime.ledger.fundraisers(account.id)) {
      if (fundraiser.teamId !== null && !fundraiser.hidden) {
        members.set(fundraiser.teamId, (members.get(fundraiser.teamId) ?? 0) + 1);
      }
    }
    const teams = runtime.ledger
      .teams(account.id)
      .filter((team) => keywords.has(team.keywordId) && nameMatches(team.name, query.q));
    return jsonListResponse("peer_fundraising_teams", teams, (team) => {
      const keyword = keywords.get(team.keywordId)!;
      const total = totals.get(team.id);
      return {
        id: team.id,
        name: team.name,
        campaign_keyword_id: team.keywordId,
        shortcode: keyword.shortcode,
        keyword: keyword.keyword,
        captain_id: team.captainId,
        member_count: members.get(team.id) ?? 0,
        total_raised: fromCents(total?.cents ?? 0),
        donation_count: total?.count ?? 0,
        team_fundraising_goal: team.goal,
        call_to_action: null,
        alternative_team_id: null,
      };
    });
  });
  return app;
}
