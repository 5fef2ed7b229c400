/**
 * A donation's life once its key is claimed (claim.ts): the attempt recorded, durably, before
 * anything is sent; a ticked SMS box kept as a consent record (consent.ts); the donation sent;
 * what the upstream's outcome (DonateOutcome) means for it decided here: nothing sent frees the
 * key, anything sent is recorded, and the answer is built from that record (answer.ts), which
 * every replay repeats. An outcome that cannot be known is answered Pending and never sent again:
 * the reconciler settles it. A decline is counted against its client and by the defence.
 */
import { randomBytes } from "node:crypto";
import { donorName, type Campaign, type DonationRequest } from "../../contract/api";
import { feeCents, fromCents, toCents } from "../../contract/money";
import { normalizeMobile } from "../../contract/phone";
import { readUtm } from "../../contract/utm";
import { campaignScope } from "../campaign/directory";
import { beginConsent, consentRecord, NO_CONSENT, type ConsentHandle, type ConsentSource } from "../consent";
import type { Defence } from "../defence/defence";
import { OPS_KINDS, type OpsCounter } from "../dashboard/ops-counts";
import type { RateLimits } from "../middleware/rate-limit";
import type { ProgressCache } from "../campaign/progress";
import { StoreUnavailableError, type ConsentStore, type NewAttempt } from "../store";
import type { DonateOutcome, UpstreamClient } from "../upstream/client";
import type { WebhookEndpoint } from "../webhooks/endpoints";
import { attemptOutbox, optinOutbox } from "../webhooks/from-attempt";
import { donationAnswer } from "./answer";
import type { ClaimHandle } from "./claim";
import { outcomeOf, toUpstreamDonation } from "./upstream";
import type { FormOutcomes } from "../dashboard/form-outcomes";

export interface AttemptDeps {
  /** A ticked SMS box's consent record. */
  store: ConsentStore;
  upstream: Pick<UpstreamClient, "donate">;
  /** A decline counts against its client; a success is what its declines are weighed against. */
  rateLimits: Pick<RateLimits, "recordDecline" | "recordSuccess">;
  /** A decline is a signal of card testing: counted overall, for its campaign, card, donor and session. */
  defence: Pick<Defence, "recordDecline" | "recordCharge">;
  /** Told of each charged gift, so the campaign's progress counts it at once. */
  progress?: Pick<ProgressCache, "changed">;
  /** GIVEKIT_WEBHOOKS: the outcome's events are written to the outbox with it (proxy/webhooks). */
  webhooks?: readonly WebhookEndpoint[];
  /** The dashboard's counts: a card that reached the network and was declined. */
  ops?: OpsCounter;
  /** The form's steps the proxy saw happen (a thank-you, a decline): the dashboard's funnel. */
  formOutcomes?: Pick<FormOutcomes, "donation">;
}

/** One donation to run: the checked request, its campaign, its claim, and who sent it. */
export interface DonationRun {
  request: DonationRequest;
  campaign: Campaign;
  claim: ClaimHandle;
  ip: string;
  /** The form session its card token was made in (checkDonation's), kept with the attempt. */
  formSession?: string | null;
  /** Where a ticked SMS box's consent was given: the request's address, page and browser. */
  consent: ConsentSource;
  /** Adds fields to the request's log line. */
  log(fields: Record<string, string | number | null>): void;
}

/** The page's campaign tags as the attempt keeps them (contract/utm.ts cleans them): JSON, or null without any. */
function utmRecord(given: unknown): string | null {
  const utm = readUtm(given);
  return Object.keys(utm).length > 0 ? JSON.stringify(utm) : null;
}

/** A short, unguessable reference the donor can quote. */
function newReference(): string {
  return `gk_${randomBytes(10).toString("hex")}`;
}

/**
 * @example
 * return runDonation(deps, { request, campaign, claim: c.get("claim"), ip, consent: consentSource(c), log });
 */
export async function runDonation(deps: AttemptDeps, run: DonationRun): Promise<Response> {
  const { request, campaign, claim, ip, log } = run;
  const amountCents = toCents(request.amount);
  const fee = request.cover_fee ? feeCents(amountCents, campaign.fee_rate) : 0;
  const reference = newReference();
  log({ reference });
  const attempt: NewAttempt = {
    reference,
    idempotency_key: claim.key,
    client_scope: claim.scope,
    client_ip: ip,
    fingerprint: claim.fingerprint,
    shortcode: campaign.shortcode,
    keyword: campaign.keyword,
    amount: fromCents(amountCents + fee),
    fee_amount: fromCents(fee),
    recurring_frequency: request.recurring_frequency ?? null,
    peer_fundraiser_id: request.peer_fundraiser_id ?? null,
    peer_fundraiser_team_id: request.peer_fundraiser_team_id ?? null,
    utm: utmRecord(request.utm),
    form_session: run.formSession ?? null,
  };
  // The claim and the attempt are durable before anything is sent; if they cannot be
  // written, nothing is sent (503 store_unavailable).
  await claim.begin(attempt);
  const webhooks = deps.webhooks ?? [];
  // A ticked SMS box is a consent like any opt-in: on record before the donation is sent,
  // whatever becomes of it (the schema made sure of its text and number), `optin.recorded` with it.
  let consent: ConsentHandle = NO_CONSENT;
  if (request.sms_opt_in_accepted) {
    const record = consentRecord(
      run.consent,
      {
        mobilenumber: normalizeMobile(request.donor.phone!)!,
        keyword: campaign.keyword,
        shortcode: campaign.shortcode,
      },
      request.sms_consent_text!,
      request.sms_consent_locale ?? null,
    );
    consent = await beginConsent(
      deps.store,
      record,
      () => log({ consentOutcome: "unrecorded" }),
      optinOutbox(webhooks, record, reference),
    );
  }

  let outcome: DonateOutcome;
  try {
    outcome = await deps.upstream.donate(toUpstreamDonation(campaign, request, reference));
  } catch (error) {
    // donate() resolves whatever the upstream did: a throw is a fault of our own after the call
    // began, and we cannot say it was not sent.
    log({ error: error instanceof Error ? error.message : "unknown error" });
    outcome = { kind: "unknown", httpStatus: null, reason: "internal error" };
  }
  // The gift's form session (its card token's, kept with the attempt), for the dashboard's
  // funnel: counted as recorded; a Pending gift's thank-you or decline when it settles (jobs.ts).
  const countForm = async (state: Parameters<FormOutcomes["donation"]>[1], code?: string | null) => {
    if (!deps.formOutcomes || !attempt.form_session) return;
    await deps.formOutcomes
      .donation({ id: attempt.form_session, campaign: campaignScope(campaign) }, state, code)
      .catch(() => undefined);
  };
  if (outcome.kind === "not_sent") {
    // Nothing reached the upstream (no connection, or no session): the same key may be retried.
    log({ outcome: "not_sent" });
    void countForm("not_sent", "upstream_unavailable");
    consent.finish("donation_not_sent");
    await claim.abandon(reference).catch(() => log({ record: "not_sent_unrecorded" }));
    throw outcome.error;
  }

  const result = outcomeOf(outcome, request);
  // What a decline is counted against: its client; and by the defence, its campaign, its card
  // (by its token), its donor and the amount tried.
  const countDecline = () => {
    deps.ops?.count(campaignScope(campaign), OPS_KINDS.declined);
    return Promise.all([
      deps.rateLimits.recordDecline(ip),
      deps.defence.recordDecline(campaignScope(campaign), {
        token: request.credit_card_token,
        email: request.donor.email,
        name: donorName(request.donor),
        amount: attempt.amount,
        ip,
      }),
    ]);
  };
  consent.finish(`donation_${result.state}`);
  const answered = { ...attempt, ...result };
  try {
    await claim.finish(reference, result, attemptOutbox(webhooks, campaign, request, reference, result));
  } catch (error) {
    // The outcome could not be recorded: answer what every replay will answer once the
    // claim's lease runs out (Pending), never something a replay would contradict.
    log({ outcome: result.state, record: "outcome_unrecorded" });
    if (result.state === "declined") await countDecline().catch(() => undefined);
    if (!(error instanceof StoreUnavailableError)) throw error;
    return donationAnswer({ ...answered, state: "unknown" });
  }
  log({ outcome: result.state, ...(result.problem_code ? { code: result.problem_code } : {}) });
  // Beside the answer: a donor never waits on a count.
  void countForm(result.state, result.problem_code);
  if (outcome.kind === "unknown") log({ upstream: outcome.reason });
  if (result.state === "declined") await countDecline();
  if (result.state === "succeeded") {
    deps.progress?.changed(campaign);
    await deps.rateLimits.recordSuccess(ip).catch(() => undefined);
    await deps.defence.recordCharge(campaignScope(campaign), { token: request.credit_card_token, ip });
  }
  return donationAnswer(answered);
}
