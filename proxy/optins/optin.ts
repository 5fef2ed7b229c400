/**
 * An SMS opt-in (POST /v1/subscriptions), from the checks to the answer: explicit consent and
 * the schema, the list or campaign served here, the client's limit; then the consent on record
 * (consent.ts) before the number is sent anywhere; then the upstream's subscribe, with the
 * PUBLIC token; then the answer, and the consent finished with what became of it.
 */
import {
  SubscriptionRequestSchema,
  type SubscriptionRequest,
  type SubscriptionResponse,
} from "../../contract/api";
import { fieldErrors } from "../../contract/error-schemas";
import type { UpstreamSubscriptionRequest } from "../../contract/upstream";
import type { CampaignDirectory } from "../campaign/directory";
import { beginConsent, consentRecord, type ConsentSource } from "../consent";
import type { RateLimits } from "../middleware/rate-limit";
import { ProblemError, problemOf } from "../problem";
import type { ConsentStore } from "../store";
import type { UpstreamClient } from "../upstream/client";
import { isRecord } from "../validate";
import type { WebhookEndpoint } from "../webhooks/endpoints";
import { optinOutbox } from "../webhooks/from-attempt";

export interface OptInDeps {
  campaigns: Pick<CampaignDirectory, "offersList" | "byKeyword">;
  upstream: Pick<UpstreamClient, "subscribe">;
  store: Pick<ConsentStore, "recordConsent" | "finishConsent">;
  rateLimits: Pick<RateLimits, "consume">;
  /** GIVEKIT_WEBHOOKS: `optin.recorded` is written with the consent record (proxy/webhooks). */
  webhooks?: readonly WebhookEndpoint[];
  /** Told of a list the upstream answered 404 for (metrics count it; doctor reads the count). */
  onListMissing?: (list: string) => void;
}

/** One opt-in to run: the parsed body, who sent it, and where its consent was given. */
export interface OptInRun {
  body: unknown;
  ip: string;
  consent: ConsentSource;
  /** Adds fields to the request's log line. */
  log(fields: Record<string, string | number>): void;
}

/** Consent first (its box unticked is named even beside other errors), then the schema. */
function checkRequest(raw: unknown): SubscriptionRequest {
  const parsed = SubscriptionRequestSchema.safeParse(raw);
  const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
  if (!isRecord(raw) || raw.consent !== true) {
    throw new ProblemError("consent_required", "The person must tick the consent box to receive messages.", {
      ...errors,
      consent: ["Consent is required."],
    });
  }
  if (!parsed.success) {
    throw new ProblemError("validation_failed", "Some fields are missing or not valid.", errors);
  }
  return parsed.data;
}

/** What the number is subscribed to, served here; as the upstream does, a list wins over keyword+shortcode. */
function servedTarget(
  campaigns: OptInDeps["campaigns"],
  request: SubscriptionRequest,
): Pick<UpstreamSubscriptionRequest, "list" | "keyword" | "shortcode"> {
  if (request.list) {
    if (!campaigns.offersList(request.list)) {
      throw new ProblemError("campaign_not_served", "This list is not offered here.");
    }
    return { list: request.list };
  }
  if (!campaigns.byKeyword(request.shortcode!, request.keyword!)) {
    throw new ProblemError(
      "campaign_not_served",
      `${request.shortcode}/${request.keyword} is not served here.`,
    );
  }
  return { keyword: request.keyword!, shortcode: request.shortcode! };
}

/**
 * @example
 * return c.json(await runOptIn(deps, { body: c.get("body"), ip, consent: consentSource(c), log }), 201);
 */
export async function runOptIn(deps: OptInDeps, run: OptInRun): Promise<SubscriptionResponse> {
  const request = checkRequest(run.body);
  const target = servedTarget(deps.campaigns, request);
  await deps.rateLimits.consume("subscriptions", run.ip);

  // The schema gives the number back as its ten digits.
  const { mobilenumber } = request;
  // The consent is on record (durably) before the number is sent anywhere.
  const record = consentRecord(
    run.consent,
    { mobilenumber, ...target },
    request.consent_text,
    request.consent_locale ?? null,
  );
  const consent = await beginConsent(
    deps.store,
    record,
    () => run.log({ consentOutcome: "unrecorded" }),
    optinOutbox(deps.webhooks ?? [], record),
  );

  const upstreamBody: UpstreamSubscriptionRequest = { mobilenumber, ...target };
  if (request.firstname) upstreamBody.firstname = request.firstname;
  if (request.lastname) upstreamBody.lastname = request.lastname;
  let outcome;
  try {
    outcome = await deps.upstream.subscribe(upstreamBody);
  } catch (error) {
    // The consent keeps the answer's code (upstream_unavailable, upstream_error…).
    consent.finish(problemOf(error)?.code ?? "error");
    throw error;
  }
  if (outcome.kind === "rejected") {
    consent.finish("rejected");
    run.log({ upstreamStatus: outcome.httpStatus });
    // A list the account does not have is the operator's mistake, not the person's: the
    // request's line names it, at warn (request-context.ts).
    if (outcome.httpStatus === 404 && target.list !== undefined) {
      run.log({
        listMissing: target.list,
        fix: `the upstream account has no list "${target.list}": correct opt_in_lists in the campaigns file (GIVEKIT_CAMPAIGNS) or create the list upstream`,
      });
      deps.onListMissing?.(target.list);
    }
    throw new ProblemError(
      "subscription_rejected",
      "The fundraising service did not accept this subscription.",
    );
  }
  consent.finish("subscribed");
  return { subscription: { status: "subscribed", mobilenumber } };
}
