/**
 * GET /v1/campaigns/{shortcode}/{keyword}: a served campaign's public settings, and the origins
 * the widget is served on (ALLOWED_ORIGINS).
 * GET /v1/campaigns?event_id=&event_type=: the same, for a campaign named by its event.
 * Both compressed by Accept-Encoding, with an ETag, cacheable a short while (CAMPAIGN_CACHE).
 * GET /v1/campaigns/{shortcode}/{keyword}/peers?q=: its fundraisers and teams for the picker (at
 *   most PEER_PAGE, with how many `more` match); ?fundraiser=ID or ?team=ID: that one peer.
 * GET /v1/campaigns/{shortcode}/{keyword}/progress: raised, goal and donors (proxy/campaign/progress.ts).
 */
import { Hono, type Context } from "hono";
import { compressedVariants, variantResponse, type Variants } from "../../http/precompressed";
import type { Campaign, CampaignResponse, PeersResponse } from "../../contract/api";
import type { CampaignDirectory } from "../campaign/directory";
import type { AppEnv } from "../context";
import type { createPeersCache } from "../campaign/peers";
import { campaignOfEvent, peerQuestion, servedCampaign } from "../campaign/questions";
import type { ProgressCache } from "../campaign/progress";

/** Browsers and CDNs may keep campaign settings and peer lists this long, in seconds. */
const PUBLIC_MAX_AGE_S = 60;
/**
 * A campaign's settings: kept a minute, then used while they are asked again in the background
 * for five more (a second page view never waits for them), and asked again with their ETag
 * (a 304 when unchanged) after that.
 */
const CAMPAIGN_CACHE = `public, max-age=${PUBLIC_MAX_AGE_S}, stale-while-revalidate=${5 * PUBLIC_MAX_AGE_S}`;

export function campaignRoutes(deps: {
  campaigns: CampaignDirectory;
  peers: ReturnType<typeof createPeersCache>;
  progress: ProgressCache;
  /** GIVEKIT_PROGRESS_CACHE_S: how long browsers may keep a progress answer too. */
  progressCacheS: number;
  /** ALLOWED_ORIGINS: said with each campaign, for the widget's `success-url`. */
  allowedOrigins: readonly string[];
}) {
  const cacheControl = `public, max-age=${PUBLIC_MAX_AGE_S}`;
  /** Each campaign's answer, compressed once (Brotli, gzip) with an ETag of its own. */
  const answers = new WeakMap<Campaign, Variants>();
  const answer = (c: Context<AppEnv>, campaign: Campaign): Response => {
    let variants = answers.get(campaign);
    if (!variants) {
      // The campaign's channel tag (`source`) is the operator's, for the upstream's reports only.
      const { source: _source, ...settings } = campaign;
      const body: CampaignResponse = { ...settings, allowed_origins: [...deps.allowedOrigins] };
      variants = compressedVariants(new TextEncoder().encode(JSON.stringify(body)));
      answers.set(campaign, variants);
    }
    return variantResponse(
      { acceptEncoding: c.req.header("accept-encoding"), ifNoneMatch: c.req.header("if-none-match") },
      variants,
      { "Content-Type": "application/json", "Cache-Control": CAMPAIGN_CACHE },
    );
  };
  return new Hono<AppEnv>()
    .get("/v1/campaigns", (c) => {
      const campaign = campaignOfEvent(deps.campaigns, c.req.query("event_id"), c.req.query("event_type"));
      return answer(c, campaign);
    })
    .get("/v1/campaigns/:shortcode/:keyword", (c) => {
      const campaign = servedCampaign(deps.campaigns, c.req.param("shortcode"), c.req.param("keyword"));
      return answer(c, campaign);
    })
    .get("/v1/campaigns/:shortcode/:keyword/peers", async (c) => {
      const campaign = servedCampaign(deps.campaigns, c.req.param("shortcode"), c.req.param("keyword"));
      const question = peerQuestion(c.req.query());
      if (!campaign.peer_fundraising)
        return c.json({ peers: [] } satisfies PeersResponse, 200, { "Cache-Control": cacheControl });
      const peers = await deps.peers.answer(campaign, question);
      return variantResponse(
        { acceptEncoding: c.req.header("accept-encoding"), ifNoneMatch: c.req.header("if-none-match") },
        peers,
        { "Content-Type": "application/json", "Cache-Control": cacheControl },
      );
    })
    .get("/v1/campaigns/:shortcode/:keyword/progress", async (c) => {
      const campaign = servedCampaign(deps.campaigns, c.req.param("shortcode"), c.req.param("keyword"));
      const progress = await deps.progress.get(campaign);
      // The figures' age in seconds (they are served while a newer read is under way or failing).
      const age = Math.max(0, Math.floor((Date.now() - Date.parse(progress.updated_at)) / 1000));
      return c.json(progress, 200, {
        "Cache-Control": `public, max-age=${deps.progressCacheS}`,
        Age: String(age),
      });
    });
}
