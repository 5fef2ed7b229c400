/**
 * GET /v1/campaigns/{shortcode}/{keyword}: a served campaign's public settings, and the origins
 * the widget is served on (ALLOWED_ORIGINS).
 * GET /v1/campaigns?event_id=&event_type=: the same, for a campaign named by its event.
 * Either with ?form=name: the same settings and, under `form`, the saved form's latest version
 *   (proxy/campaign/saved-forms.ts), revalidated on every load so a page follows a saved change.
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
import type { SavedFormReader } from "../campaign/saved-forms";
import type { ServedForm } from "../../contract/saved-forms";

/** Browsers and CDNs may keep campaign settings and peer lists this long, in seconds. */
const PUBLIC_MAX_AGE_S = 60;
/**
 * A campaign's settings: kept a minute, then used while they are asked again in the background
 * for five more (a second page view never waits for them), and asked again with their ETag
 * (a 304 when unchanged) after that.
 */
const CAMPAIGN_CACHE = `public, max-age=${PUBLIC_MAX_AGE_S}, stale-while-revalidate=${5 * PUBLIC_MAX_AGE_S}`;
/** With a saved form: asked again (by its ETag, a 304 while unchanged) on every load, so a saved change shows on the next. */
const FORM_CACHE = "no-cache";

export function campaignRoutes(deps: {
  campaigns: CampaignDirectory;
  peers: ReturnType<typeof createPeersCache>;
  progress: ProgressCache;
  /** GIVEKIT_PROGRESS_CACHE_S: how long browsers may keep a progress answer too. */
  progressCacheS: number;
  /** ALLOWED_ORIGINS: said with each campaign, for the widget's `success-url`. */
  allowedOrigins: readonly string[];
  /** The saved forms (`?form=`). */
  forms: SavedFormReader;
}) {
  const cacheControl = `public, max-age=${PUBLIC_MAX_AGE_S}`;
  /** Each campaign's answer, compressed once (Brotli, gzip) with an ETag of its own. */
  const answers = new WeakMap<Campaign, Variants>();
  /** With a form: per campaign, that form's latest version's answer. */
  const formAnswers = new WeakMap<Campaign, Map<string, { form: ServedForm; variants: Variants }>>();
  const bodyOf = (campaign: Campaign, form?: ServedForm) => {
    // The campaign's channel tag (`source`) is the operator's, for the upstream's reports only.
    const { source: _source, ...settings } = campaign;
    const body: CampaignResponse = {
      ...settings,
      allowed_origins: [...deps.allowedOrigins],
      ...(form && { form }),
    };
    return compressedVariants(new TextEncoder().encode(JSON.stringify(body)));
  };
  const answer = async (c: Context<AppEnv>, campaign: Campaign): Promise<Response> => {
    const name = c.req.query("form");
    let variants = answers.get(campaign);
    if (name !== undefined) {
      const form = await deps.forms.form(campaign, name);
      let byName = formAnswers.get(campaign);
      if (!byName) formAnswers.set(campaign, (byName = new Map()));
      let kept = byName.get(name);
      if (kept?.form !== form) byName.set(name, (kept = { form, variants: bodyOf(campaign, form) }));
      variants = kept.variants;
    } else if (!variants) {
      variants = bodyOf(campaign);
      answers.set(campaign, variants);
    }
    return variantResponse(
      { acceptEncoding: c.req.header("accept-encoding"), ifNoneMatch: c.req.header("if-none-match") },
      variants,
      {
        "Content-Type": "application/json",
        "Cache-Control": name === undefined ? CAMPAIGN_CACHE : FORM_CACHE,
      },
    );
  };
  return new Hono<AppEnv>()
    .get("/v1/campaigns", async (c) => {
      const campaign = campaignOfEvent(deps.campaigns, c.req.query("event_id"), c.req.query("event_type"));
      return await answer(c, campaign);
    })
    .get("/v1/campaigns/:shortcode/:keyword", async (c) => {
      const campaign = servedCampaign(deps.campaigns, c.req.param("shortcode"), c.req.param("keyword"));
      return await answer(c, campaign);
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
