/**
 * POST /v1/donations and GET /v1/donations/{reference}: the checks in order, then a donation's
 * life, which is all in proxy/donations/ (its key, its campaign, its attempt, its answer).
 */
import { Hono } from "hono";
import {
  DonationReferenceSchema,
  DonationRequestSchema,
  type Campaign,
  type DonationRequest,
} from "../../contract/api";
import type { CampaignDirectory } from "../campaigns";
import { consentSource } from "../consent";
import { donationStatus } from "../donations/answer";
import { runDonation, type AttemptDeps } from "../donations/attempt";
import { checkAgainstCampaign, resolveCampaign } from "../donations/campaign";
import { claimKey, requireKey, type ClaimEnv, type ClaimStore } from "../donations/claim";
import { jsonBody } from "../middleware/json-body";
import type { Defence } from "../defence/defence";
import type { RateLimits } from "../middleware/rate-limit";
import { campaignScope } from "../campaigns";
import { ProblemError } from "../problem";
import type { AttemptStore } from "../store";
import { validate } from "../validate";

export interface DonationDeps extends AttemptDeps {
  campaigns: CampaignDirectory;
  signingSecret: string;
  /** The key's claim and the attempt's record; the status route reads an attempt. */
  store: AttemptDeps["store"] & ClaimStore & Pick<AttemptStore, "attempt">;
  rateLimits: Pick<RateLimits, "consume" | "admit" | "enterDonation" | "recordDecline" | "recordSuccess">;
  /**
   * Every path to the card network is gated: a charge's card token too (defence-mode.ts); and
   * each decline is a signal.
   */
  defence: Pick<Defence, "admitDonation" | "recordDecline">;
}

/** The parsed request and its campaign, checked before any key is claimed. */
type DonationEnv = ClaimEnv & {
  Variables: ClaimEnv["Variables"] & {
    donation: { request: DonationRequest; campaign: Campaign };
    /** The card token was made under a solved challenge. */
    proven: boolean;
  };
};

function donationNotFound(): ProblemError {
  return new ProblemError("not_found", "No donation has this reference.");
}

/**
 * @example
 * app.route("/", donationRoutes({ campaigns, upstream, store, signingSecret, rateLimits, defence }));
 */
export function donationRoutes(deps: DonationDeps) {
  const app = new Hono<DonationEnv>();
  app.get("/v1/donations/:reference", async (c) => {
    const reference = c.req.param("reference");
    // A malformed reference is not looked up at all.
    if (!DonationReferenceSchema.safeParse(reference).success) throw donationNotFound();
    // Its own bucket, and no decline block: a lookup moves no money, and a blocked donor may
    // still learn what became of a donation.
    await deps.rateLimits.consume("donationStatus", c.get("clientIp"));
    const attempt = await deps.store.attempt(reference);
    if (!attempt) throw donationNotFound();
    return c.json(donationStatus(attempt));
  });
  return app.post(
    "/v1/donations",
    requireKey(),
    jsonBody(),
    async (c, next) => {
      const request = validate(DonationRequestSchema, c.get("body"));
      const campaign = resolveCampaign(deps.campaigns, request);
      checkAgainstCampaign(campaign, request);
      c.set("donation", { request, campaign });
      // Before any key is claimed: a refused card token leaves the key free for the next token.
      const { proven } = await deps.defence.admitDonation({
        ip: c.get("clientIp"),
        campaign: campaignScope(campaign),
        token: request.credit_card_token,
        email: request.donor.email,
      });
      c.set("proven", proven);
      await next();
    },
    claimKey({ store: deps.store, secret: deps.signingSecret }),
    async (c, next) => {
      // A replay never gets here: only what may go upstream takes a place (rate-limit.ts).
      await deps.rateLimits.admit("donations", c.get("clientIp"));
      const leave = await deps.rateLimits.enterDonation(c.get("clientIp"), c.get("proven"));
      try {
        await next();
      } finally {
        await leave();
      }
    },
    (c) =>
      runDonation(deps, {
        ...c.get("donation"),
        claim: c.get("claim"),
        ip: c.get("clientIp"),
        consent: consentSource(c),
        log: (fields) => c.set("logFields", { ...c.get("logFields"), ...fields }),
      }),
  );
}
