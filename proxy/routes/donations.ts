/**
 * POST /v1/donations and GET /v1/donations/{reference}: the steps in order (the key read, the
 * body, the checks, the key claimed, the client's turn, the attempt); each is proxy/donations/'s
 * (its checks, its key, its attempt, its answer).
 */
import { Hono } from "hono";
import { DonationReferenceSchema } from "../../contract/api";
import type { CampaignDirectory } from "../campaigns";
import { consentSource } from "../consent";
import { donationStatus } from "../donations/answer";
import { runDonation, type AttemptDeps } from "../donations/attempt";
import { checkDonation, type CheckedDonation } from "../donations/check";
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

/** The parsed request and its campaign, checked before any key is claimed. */
type DonationEnv = ClaimEnv & {
  Variables: ClaimEnv["Variables"] & {
    donation: Omit<CheckedDonation, "proven">;
    proven: CheckedDonation["proven"];
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
      const { proven, ...donation } = await checkDonation(deps, c.get("body"), c.get("clientIp"));
      c.set("donation", donation);
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
