/**
 * POST /v1/donations and GET /v1/donations/{reference}. A donation's steps read top to bottom:
 * the request (its key's header, its body, the schema), then its key looked up and claimed, and
 * only then what holds now (the campaign's rules, the defence, the client's limits), then the
 * attempt. Each step is proxy/donations/'s (check.ts, claim.ts, attempt.ts, answer.ts).
 */
import { Hono } from "hono";
import { DonationReferenceSchema } from "../../contract/api";
import type { DonationRequest } from "../../contract/api";
import type { CampaignDirectory } from "../campaign/directory";
import { consentSource } from "../consent";
import { donationStatus } from "../donations/answer";
import { runDonation, type AttemptDeps } from "../donations/attempt";
import { checkDonation, readDonation } from "../donations/check";
import { claimKey, requireKey, type ClaimEnv, type ClaimStore } from "../donations/claim";
import { jsonBody } from "../middleware/json-body";
import type { Defence } from "../defence/defence";
import type { RateLimits } from "../middleware/rate-limit";
import { ProblemError } from "../problem";
import type { AttemptStore } from "../store";

export interface DonationDeps extends AttemptDeps {
  campaigns: CampaignDirectory;
  signingSecret: string;
  /** The key's claim and the attempt's record; the status route reads an attempt. */
  store: AttemptDeps["store"] & ClaimStore & Pick<AttemptStore, "attempt">;
  rateLimits: Pick<RateLimits, "consume" | "admit" | "enterDonation" | "recordDecline" | "recordSuccess">;
  /**
   * Every path to the card network is gated: a charge's card token too (defence/scrutiny.ts); and
   * each decline is a signal.
   */
  defence: Pick<Defence, "admitDonation" | "recordDecline" | "recordCharge">;
}

/** The request as the schema read it, before its key is looked up. */
type DonationEnv = ClaimEnv & { Variables: ClaimEnv["Variables"] & { request: DonationRequest } };

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
    // 1. The request: a key in its header, a JSON body, the schema. Nothing is looked up yet.
    requireKey(),
    jsonBody(),
    async (c, next) => {
      c.set("request", readDonation(c.get("body")));
      await next();
    },
    // 2. Its key, before anything weighs the donor, the client or the card: a key with an answer
    // gets it byte for byte, a key in flight 409, another body 422, whatever holds for them now.
    claimKey({ store: deps.store, secret: deps.signingSecret }),
    // 3. What holds now: the campaign's rules, the defence, the client's turn (only what may go
    // upstream takes a place: rate-limit.ts). A refusal here frees the key (claim.ts).
    async (c) => {
      const ip = c.get("clientIp");
      const request = c.get("request");
      const { campaign, proven, formSession } = await checkDonation(deps, request, ip);
      await deps.rateLimits.admit("donations", ip);
      const leave = await deps.rateLimits.enterDonation(ip, proven);
      try {
        // 4. The attempt: recorded, sent, decided, answered (attempt.ts, answer.ts).
        return await runDonation(deps, {
          request,
          campaign,
          claim: c.get("claim"),
          ip,
          formSession,
          consent: consentSource(c),
          log: (fields) => c.set("logFields", { ...c.get("logFields"), ...fields }),
        });
      } finally {
        await leave();
      }
    },
  );
}
