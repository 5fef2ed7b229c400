/**
 * POST /v1/form-sessions: the card frame's form session (proxy/defence/form-session.ts), asked
 * for when the frame opens and renewed while it stays open (`{"renew": "<its session>"}`).
 */
import { Hono } from "hono";
import { FormSessionRequestSchema } from "../../contract/api";
import { campaignScope, type CampaignDirectory } from "../campaign/directory";
import { ProblemError } from "../problem";
import type { AppEnv } from "../context";
import type { FormSessions } from "../defence/form-session";
import { jsonBody } from "../middleware/json-body";
import type { RateLimits } from "../middleware/rate-limit";
import { validate } from "../validate";

export function formSessionRoutes(deps: {
  formSessions: FormSessions;
  rateLimits: RateLimits;
  campaigns: CampaignDirectory;
  /** ALLOWED_ORIGINS: a session may be bound only to one of them (any, when none is set). */
  allowedOrigins: readonly string[];
}) {
  return new Hono<AppEnv>().post("/v1/form-sessions", jsonBody(), async (c) => {
    const { renew, shortcode, keyword, origin } = validate(FormSessionRequestSchema, c.get("body"));
    const ip = c.get("clientIp");
    await deps.rateLimits.consume("formSessions", ip);
    let campaign: string | undefined;
    if (shortcode !== undefined || keyword !== undefined) {
      const served = shortcode && keyword ? deps.campaigns.byKeyword(shortcode, keyword) : undefined;
      if (!served) throw new ProblemError("campaign_not_served", "This campaign is not served here.");
      campaign = campaignScope(served);
    }
    if (origin !== undefined && deps.allowedOrigins.length > 0 && !deps.allowedOrigins.includes(origin))
      throw new ProblemError("origin_not_allowed", "This page may not open the card form.");
    return c.json(await deps.formSessions.issue(renew, { ip, campaign, origin }), 201, {
      "Cache-Control": "no-store",
    });
  });
}
