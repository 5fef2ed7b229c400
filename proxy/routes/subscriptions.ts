/**
 * POST /v1/subscriptions: an SMS opt-in, sent upstream with the PUBLIC token. Explicit consent
 * is required, and each one is kept as a consent record (number, target, hash of the text the
 * person was shown, time, IP, user agent, page URL).
 */
import { Hono } from "hono";
import { consentOf } from "../consent";
import { SubscriptionRequestSchema, type SubscriptionResponse } from "../../contract/api";
import { fieldErrors } from "../../contract/error-schemas";
import type { UpstreamSubscriptionRequest } from "../../contract/upstream";
import type { CampaignDirectory } from "../campaigns";
import type { AppEnv } from "../context";
import { jsonBody } from "../middleware/json-body";
import type { RateLimits } from "../middleware/rate-limit";
import { ProblemError } from "../problem";
import type { Store } from "../store";
import type { UpstreamClient } from "../upstream/client";
import { isRecord } from "../validate";
import type { WebhookEndpoint } from "../webhooks/endpoints";
import { optinEvents, outboxRows } from "../webhooks/from-attempt";

export function subscriptionRoutes(deps: {
  campaigns: CampaignDirectory;
  upstream: UpstreamClient;
  store: Store;
  rateLimits: RateLimits;
  /** GIVEKIT_WEBHOOKS: `optin.recorded` is written with the consent record (proxy/webhooks). */
  webhooks?: readonly WebhookEndpoint[];
}) {
  return new Hono<AppEnv>().post("/v1/subscriptions", jsonBody(), async (c) => {
    const raw = c.get("body");
    const parsed = SubscriptionRequestSchema.safeParse(raw);
    const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
    if (!isRecord(raw) || raw.consent !== true) {
      throw new ProblemError(
        "consent_required",
        "The person must tick the consent box to receive messages.",
        {
          ...errors,
          consent: ["Consent is required."],
        },
      );
    }
    if (!parsed.success) {
      throw new ProblemError("validation_failed", "Some fields are missing or not valid.", errors);
    }
    const request = parsed.data;

    // As the upstream does, a list wins over keyword+shortcode.
    if (request.list) {
      if (!deps.campaigns.offersList(request.list)) {
        throw new ProblemError("campaign_not_served", "This list is not offered here.");
      }
    } else if (!deps.campaigns.byKeyword(request.shortcode!, request.keyword!)) {
      throw new ProblemError(
        "campaign_not_served",
        `${request.shortcode}/${request.keyword} is not served here.`,
      );
    }
    // The schema gives the number back as its ten digits.
    const { mobilenumber } = request;

    const ip = c.get("clientIp");
    await deps.rateLimits.consume("subscriptions", ip);

    const target: Pick<UpstreamSubscriptionRequest, "list" | "keyword" | "shortcode"> = request.list
      ? { list: request.list }
      : { keyword: request.keyword!, shortcode: request.shortcode! };
    // The consent is on record (durably) before the number is sent anywhere.
    const consent = consentOf(c, { mobilenumber, ...target }, request.consent_text);
    const consentId = await deps.store.recordConsent(
      consent,
      outboxRows(deps.webhooks ?? [], optinEvents(consent)),
    );

    const upstreamBody: UpstreamSubscriptionRequest = { mobilenumber, ...target };
    if (request.firstname) upstreamBody.firstname = request.firstname;
    if (request.lastname) upstreamBody.lastname = request.lastname;

    // Nobody waits for the outcome's write; a failed one is only logged.
    const finishConsent = (outcome: string) =>
      void deps.store.finishConsent(consentId, outcome).catch(() => {
        c.set("logFields", { ...c.get("logFields"), consentOutcome: "unrecorded" });
      });
    let outcome;
    try {
      outcome = await deps.upstream.subscribe(upstreamBody);
    } catch (error) {
      finishConsent(error instanceof ProblemError ? error.code : "error");
      throw error;
    }
    if (outcome.kind === "rejected") {
      finishConsent("rejected");
      c.set("logFields", { ...c.get("logFields"), upstreamStatus: outcome.httpStatus });
      throw new ProblemError(
        "subscription_rejected",
        "The fundraising service did not accept this subscription.",
      );
    }
    finishConsent("subscribed");
    const body: SubscriptionResponse = { subscription: { status: "subscribed", mobilenumber } };
    return c.json(body, 201);
  });
}
