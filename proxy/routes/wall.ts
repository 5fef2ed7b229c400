/**
 * Gala night's feeds, all from caches other routes fill already (nothing here asks the upstream):
 * GET /v1/campaigns/{shortcode}/{keyword}/wall?limit=: the newest gifts as a room may see them
 *   (proxy/campaign/wall.ts), from the same report read as …/progress.
 * GET …/leaderboard?of=teams|fundraisers&limit=: peers by raised, summed from the same read
 *   (proxy/campaign/leaderboard.ts), named from the peer lists (proxy/campaign/peers.ts).
 * GET …/live?of=: server-sent events, `figures` ({progress, wall, stale, leaders when `of` is
 *   given}) at once and on each change.
 * The first two are compressed and cacheable for LIVE_MAX_AGE_S.
 */
import { Hono, type Context } from "hono";
import { streamSSE } from "hono/streaming";
import { compressedVariants, variantResponse, type Variants } from "../../http/precompressed";
import type { LeaderboardResponse, WallResponse } from "../../contract/api";
import { LEADERBOARD_LIMIT_MAX, WALL_LIMIT_MAX } from "../../contract/gala";
import type { CampaignDirectory } from "../campaign/directory";
import type { AppEnv } from "../context";
import type { GalaFeed } from "../campaign/gala-feed";
import { kindOf, limitOf, servedCampaign } from "../campaign/questions";
import type { LiveHub } from "../campaign/live-hub";

/** Browsers and CDNs may keep a wall or a leaderboard this long: a room sees a gift within it. */
export const LIVE_MAX_AGE_S = 5;
export const WALL_LIMIT_DEFAULT = 12;
export const LEADERBOARD_LIMIT_DEFAULT = 10;

const encode = (value: unknown) => new Uint8Array(new TextEncoder().encode(JSON.stringify(value)));

/** Answers made once per source (a read's wall or leaderboard) and limit, kept for everyone who asks the same. */
class Answers<Source extends object> {
  private kept = new WeakMap<Source, Map<string, Variants>>();
  get(source: Source, key: string, make: () => unknown): Variants {
    let bySource = this.kept.get(source);
    if (!bySource) this.kept.set(source, (bySource = new Map()));
    let variants = bySource.get(key);
    if (!variants) bySource.set(key, (variants = compressedVariants(encode(make()))));
    return variants;
  }
}

export function wallRoutes(deps: { campaigns: CampaignDirectory; feed: GalaFeed; live: LiveHub }) {
  const cacheControl = `public, max-age=${LIVE_MAX_AGE_S}`;
  const respond = (c: Context<AppEnv>, variants: Variants) =>
    variantResponse(
      { acceptEncoding: c.req.header("accept-encoding"), ifNoneMatch: c.req.header("if-none-match") },
      variants,
      { "Content-Type": "application/json", "Cache-Control": cacheControl },
    );
  const answers = new Answers<object>();

  return new Hono<AppEnv>()
    .get("/v1/campaigns/:shortcode/:keyword/wall", async (c) => {
      const campaign = servedCampaign(deps.campaigns, c.req.param("shortcode"), c.req.param("keyword"));
      const limit = limitOf(c.req.query("limit"), WALL_LIMIT_DEFAULT, WALL_LIMIT_MAX);
      const live = await deps.feed.live(campaign);
      // The wall array is the same object until the next read: the answer is made once per read.
      return respond(
        c,
        answers.get(live.wall, String(limit), (): WallResponse => ({
          entries: live.wall.slice(0, limit),
          currency: campaign.currency,
          updated_at: live.progress.updated_at,
        })),
      );
    })
    .get("/v1/campaigns/:shortcode/:keyword/leaderboard", async (c) => {
      const campaign = servedCampaign(deps.campaigns, c.req.param("shortcode"), c.req.param("keyword"));
      const of = kindOf(c.req.query("of"), "teams");
      const limit = limitOf(c.req.query("limit"), LEADERBOARD_LIMIT_DEFAULT, LEADERBOARD_LIMIT_MAX);
      const leaders = (await deps.feed.live(campaign)).leaders(of === "teams" ? "team" : "fundraiser");
      // The same array until the next read or peer list: the answer is made once per read and limit.
      return respond(
        c,
        answers.get(leaders, String(limit), (): LeaderboardResponse => ({
          of,
          currency: campaign.currency,
          leaders: leaders.slice(0, limit),
        })),
      );
    })
    .get("/v1/campaigns/:shortcode/:keyword/live", async (c) => {
      const campaign = servedCampaign(deps.campaigns, c.req.param("shortcode"), c.req.param("keyword"));
      const view = kindOf(c.req.query("of"), null) ?? "";
      // Read before the stream opens: with no figures at all the answer is a problem, not an empty stream.
      const first = await deps.feed.live(campaign);
      return streamSSE(c, async (stream) => {
        let end!: () => void;
        const ended = new Promise<void>((resolve) => (end = resolve));
        // The browser went away, or the hub ends the stream (the proxy is closing).
        stream.onAbort(end);
        const leave = deps.live.join(
          campaign,
          { write: (chunk) => stream.write(chunk), close: end },
          first,
          view,
        );
        await ended;
        leave();
      });
    });
}
