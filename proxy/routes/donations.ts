/**
 * POST /v1/donations: a card donation with a payment token, guarded by an Idempotency-Key.
 * The attempt is recorded before the upstream call and after it, and every answer is built
 * from its recorded state; an attempt whose outcome is unknown is answered 202 Pending and is
 * never sent again.
 */
import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import {
  DonationRequestSchema,
  type Campaign,
  type DonationRequest,
  DonationReferenceSchema,
  type DonationResponse,
  type DonationStatusResponse,
  type RecurringFrequency,
} from "../../contract/api";
import { feeCents, fromCents, toCents } from "../../contract/money";
import { normalizeMobile } from "../../contract/phone";
import type { UpstreamDonationRequest } from "../../contract/upstream";
import type { CampaignDirectory } from "../campaigns";
import type { ErrorCode } from "../../contract/errors";
import { readIdempotencyKey } from "../idempotency";
import { idempotent, type IdempotentEnv } from "../middleware/idempotent";
import { jsonBody } from "../middleware/json-body";
import type { RateLimits } from "../middleware/rate-limit";
import { PROBLEM_CONTENT_TYPE, PROBLEM_KINDS, ProblemError, problemBody } from "../problem";
import {
  StoreUnavailableError,
  type AttemptOutcome,
  type AttemptRecord,
  type NewAttempt,
  type Store,
} from "../store";
import type { ProgressCache } from "../progress";
import type { DonateOutcome, UpstreamClient } from "../upstream/client";
import { donationSource } from "../reconcile/match";
import { validate } from "../validate";
import { campaignScope } from "../campaigns";
import { consentOf } from "../consent";

export interface DonationDeps {
  campaigns: CampaignDirectory;
  upstream: UpstreamClient;
  store: Store;
  signingSecret: string;
  rateLimits: RateLimits;
  /** Told of each charged gift, so the campaign's progress counts it at once. */
  progress?: Pick<ProgressCache, "changed">;
}

/** The 202 body for a donation whose outcome is unknown. */
export function pendingBody(reference: string): string {
  const body: DonationResponse = { donation: { status: "Pending", reference } };
  return JSON.stringify(body);
}

/** A short, unguessable reference the donor can quote. */
function newReference(): string {
  return `gk_${randomBytes(10).toString("hex")}`;
}

function resolveCampaign(directory: CampaignDirectory, request: DonationRequest): Campaign {
  const named = request.shortcode && request.keyword;
  const byKeyword = named ? directory.byKeyword(request.shortcode!, request.keyword!) : undefined;
  const byEvent =
    request.event_id && request.event_type
      ? directory.byEvent(request.event_id, request.event_type)
      : undefined;
  if (named && !byKeyword) {
    throw new ProblemError(
      "campaign_not_served",
      `${request.shortcode}/${request.keyword} is not served here.`,
    );
  }
  if (request.event_id && request.event_type && !byEvent) {
    throw new ProblemError("campaign_not_served", "This event is not served here.");
  }
  if (byKeyword && byEvent && byKeyword !== byEvent) {
    throw new ProblemError("validation_failed", "The keyword and the event name different campaigns.", {
      event_id: ["This event belongs to another campaign than the keyword."],
    });
  }
  return (byKeyword ?? byEvent)!;
}

/** Campaign rules the schema cannot know: the amount range and the offered frequencies. */
function checkAgainstCampaign(campaign: Campaign, request: DonationRequest): void {
  const errors: Record<string, string[]> = {};
  const cents = toCents(request.amount);
  if (cents < toCents(campaign.min_amount) || cents > toCents(campaign.max_amount)) {
    errors.amount = [
      `The amount must be between ${campaign.min_amount} and ${campaign.max_amount} ${campaign.currency}.`,
    ];
  }
  if (request.recurring_frequency && !campaign.recurring_frequencies.includes(request.recurring_frequency)) {
    errors.recurring_frequency = ["This campaign does not offer that frequency."];
  }
  if (Object.keys(errors).length > 0) {
    throw new ProblemError("validation_failed", "Some fields are not valid for this campaign.", errors);
  }
}

/**
 * The upstream donate body: the campaign's own target and fee rate, and a source tagged with the
 * attempt's reference (the report gives it back as `api_via_givekit.<reference>`).
 */
export function toUpstreamDonation(
  campaign: Campaign,
  request: DonationRequest,
  reference: string,
): UpstreamDonationRequest {
  const donor = request.donor;
  const phone = donor.phone ? normalizeMobile(donor.phone) : null;
  const body: UpstreamDonationRequest = {
    shortcode_string: campaign.shortcode,
    keyword_string: campaign.keyword,
    amount: fromCents(toCents(request.amount)),
    source: donationSource(reference),
    credit_card_token: request.credit_card_token,
    email: donor.email,
  };
  if (request.cover_fee) body.fee_rate = Number(campaign.fee_rate);
  if (request.form_id) body.form_id = request.form_id;
  if (request.recurring_frequency) body.recurring_frequency = request.recurring_frequency;
  if (request.memo) body.memo = request.memo;
  if (request.anonymous !== undefined) body.anonymous = request.anonymous;
  if (request.sms_opt_in_accepted !== undefined) body.sms_opt_in_accepted = request.sms_opt_in_accepted;
  if (request.pledge_wall) body.pledge_wall = "true";
  if (request.peer_fundraiser_id) body.peer_fundraiser_id = request.peer_fundraiser_id;
  if (request.peer_fundraiser_team_id) body.peer_fundraiser_team_id = request.peer_fundraiser_team_id;
  if (donor.full_name) body.full_name = donor.full_name;
  if (donor.first_name) body.first_name = donor.first_name;
  if (donor.last_name) body.last_name = donor.last_name;
  if (phone) body.phone = phone;
  for (const field of ["street_address", "city", "state", "zip", "postal_code", "country"] as const) {
    const value = donor[field];
    if (value) body[field] = value;
  }
  return body;
}

/** What an outcome means for the attempt's record; the answer is then built from that record. */
function outcomeOf(outcome: DonateOutcome, request: DonationRequest): AttemptOutcome {
  const base = { upstream_status: outcome.httpStatus, transaction_id: null, message: null };
  const refused = (problem_code: string, problem_field: string | null = null): AttemptOutcome => ({
    ...base,
    state: "rejected",
    problem_code,
    problem_field,
  });
  switch (outcome.kind) {
    case "answered":
      if (outcome.status === "Success") {
        return {
          ...base,
          state: "succeeded",
          transaction_id: outcome.transactionId,
          message: outcome.message,
          problem_code: null,
          problem_field: null,
        };
      }
      return {
        ...base,
        state: outcome.status === "Error" ? "declined" : "failed",
        problem_code: null,
        problem_field: null,
      };
    case "rejected": {
      const peerFields = ["peer_fundraiser_id", "peer_fundraiser_team_id"].filter(
        (field) => request[field as "peer_fundraiser_id"] !== undefined,
      );
      // The contract's only documented 400 is attribution (4.3 rule 5); when the upstream names
      // fields, trust those names, else a 400 for a request that named a peer is that case.
      const named = outcome.fields.filter((field) => peerFields.includes(field));
      const aboutPeer = outcome.fields.length > 0 ? named.length > 0 : peerFields.length > 0;
      if (outcome.httpStatus === 400 && aboutPeer) return refused("invalid_peer", named[0] ?? peerFields[0]!);
      if (outcome.fields.includes("credit_card_token"))
        return refused("validation_failed", "credit_card_token");
      return refused("upstream_error");
    }
    case "unknown":
      return { ...base, state: "unknown", problem_code: null, problem_field: null };
  }
}

function problemAnswer(code: ErrorCode, detail: string, errors?: Record<string, string[]>): Response {
  return new Response(JSON.stringify(problemBody(code, detail, errors)), {
    status: PROBLEM_KINDS[code].status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE },
  });
}

/**
 * The answer an attempt gives, built from its recorded state: the first time and on every
 * replay, on any proxy. An attempt whose outcome is not known (yet) is 202 Pending.
 *
 * @example
 * donationAnswer(await store.attempt("gk_…")).status; // 200, 402, 202, …
 */
export function donationAnswer(attempt: AttemptRecord): Response {
  switch (attempt.state) {
    case "succeeded": {
      const body: DonationResponse = {
        donation: {
          status: "Success",
          message: attempt.message ?? "",
          transaction_id: attempt.transaction_id ?? "",
          amount: attempt.amount,
          fee_amount: attempt.fee_amount,
          // Recorded from a request the schema checked.
          recurring_frequency: attempt.recurring_frequency as RecurringFrequency | null,
        },
      };
      return Response.json(body, { status: 200 });
    }
    case "declined":
      return problemAnswer("card_declined", "The card was declined. No money was taken.");
    case "failed":
      return problemAnswer("payment_failed", "The payment could not be processed. No money was taken.");
    case "not_charged":
      // Reconciled: the transactions report shows no charge. A replay says so, as the status route does.
      return problemAnswer("payment_failed", "The payment did not go through. No money was taken.");
    case "rejected": {
      const field = attempt.problem_field;
      if (attempt.problem_code === "invalid_peer" && field) {
        return problemAnswer("invalid_peer", "Choose a fundraiser or team of this campaign.", {
          [field]: ["This fundraiser or team is not part of this campaign."],
        });
      }
      if (attempt.problem_code === "validation_failed" && field) {
        return problemAnswer("validation_failed", "The card could not be used. Enter it again.", {
          [field]: ["The card could not be used. Enter it again."],
        });
      }
      return problemAnswer(
        "upstream_error",
        "The fundraising service refused the donation. No money was taken.",
      );
    }
    default:
      return new Response(pendingBody(attempt.reference), {
        status: 202,
        headers: { "Content-Type": "application/json" },
      });
  }
}

function donationNotFound(): ProblemError {
  return new ProblemError("not_found", "No donation has this reference.");
}

/**
 * What a donor may learn of an attempt by its reference: its status and transaction id only.
 *
 * @example
 * donationStatus(attempt); // {donation: {status: "Success", reference: "gk_…", transaction_id: "100001"}}
 */
export function donationStatus(attempt: AttemptRecord): DonationStatusResponse {
  const { reference } = attempt;
  switch (attempt.state) {
    case "succeeded":
      return { donation: { status: "Success", reference, transaction_id: attempt.transaction_id ?? "" } };
    case "sending":
    case "unknown":
      return { donation: { status: "Pending", reference } };
    default:
      return { donation: { status: "NotCharged", reference } };
  }
}

/** The parsed request and its campaign, checked before any key is claimed. */
type DonationEnv = IdempotentEnv & {
  Variables: IdempotentEnv["Variables"] & { donation: { request: DonationRequest; campaign: Campaign } };
};

/**
 * @example
 * app.route("/", donationRoutes({ campaigns, upstream, store, signingSecret, rateLimits }));
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
    // The key is checked before the body is read: without one, nothing else matters.
    async (c, next) => {
      readIdempotencyKey(c.req.header("idempotency-key"));
      await next();
    },
    jsonBody(),
    async (c, next) => {
      const request = validate(DonationRequestSchema, c.get("body"));
      const campaign = resolveCampaign(deps.campaigns, request);
      checkAgainstCampaign(campaign, request);
      c.set("donation", { request, campaign });
      await next();
    },
    idempotent({
      store: deps.store,
      secret: deps.signingSecret,
      endpoint: "donations",
      answer: donationAnswer,
    }),
    async (c, next) => {
      // A replay never gets here: only what may go upstream takes a place (rate-limit.ts).
      await deps.rateLimits.admit("donations", c.get("clientIp"));
      const leave = await deps.rateLimits.enterDonation(c.get("clientIp"));
      try {
        await next();
      } finally {
        await leave();
      }
    },
    async (c) => {
      const { request, campaign } = c.get("donation");
      const idempotency = c.get("idempotency");
      const ip = c.get("clientIp");
      const log = (fields: Record<string, string | number | null>) =>
        c.set("logFields", { ...c.get("logFields"), ...fields });

      const amountCents = toCents(request.amount);
      const fee = request.cover_fee ? feeCents(amountCents, campaign.fee_rate) : 0;
      const reference = newReference();
      log({ reference });
      const attempt: NewAttempt = {
        reference,
        idempotency_key: idempotency.key,
        client_scope: idempotency.scope,
        client_ip: ip,
        fingerprint: idempotency.fingerprint,
        shortcode: campaign.shortcode,
        keyword: campaign.keyword,
        amount: fromCents(amountCents + fee),
        fee_amount: fromCents(fee),
        recurring_frequency: request.recurring_frequency ?? null,
        peer_fundraiser_id: request.peer_fundraiser_id ?? null,
        peer_fundraiser_team_id: request.peer_fundraiser_team_id ?? null,
      };
      // The claim and the attempt are durable before anything is sent; if they cannot be
      // written, nothing is sent (503 store_unavailable).
      await idempotency.begin(attempt);
      // A ticked SMS box is a consent like any opt-in: on record before the donation is sent,
      // whatever becomes of it (the schema made sure of its text and number).
      const consentId = request.sms_opt_in_accepted
        ? await deps.store.recordConsent(
            consentOf(
              c,
              {
                mobilenumber: normalizeMobile(request.donor.phone!)!,
                keyword: campaign.keyword,
                shortcode: campaign.shortcode,
              },
              request.sms_consent_text!,
            ),
          )
        : null;
      const finishConsent = (state: string) => {
        if (consentId !== null)
          void deps.store
            .finishConsent(consentId, `donation_${state}`)
            .catch(() => log({ consentOutcome: "unrecorded" }));
      };

      let outcome: DonateOutcome;
      try {
        outcome = await deps.upstream.donate(toUpstreamDonation(campaign, request, reference));
      } catch (error) {
        if (error instanceof ProblemError) {
          // Nothing reached the upstream (no connection, or no session): the same key may be retried.
          log({ outcome: "not_sent" });
          finishConsent("not_sent");
          await idempotency.abandon(reference).catch(() => log({ record: "not_sent_unrecorded" }));
          throw error;
        }
        // A fault of our own after the call began: we cannot say it was not sent.
        log({ error: error instanceof Error ? error.message : "unknown error" });
        outcome = { kind: "unknown", httpStatus: null, reason: "internal error" };
      }

      const result = outcomeOf(outcome, request);
      finishConsent(result.state);
      const record: AttemptRecord = {
        ...attempt,
        ...result,
        note: null,
        created_at: "",
        updated_at: "",
      };
      try {
        await idempotency.finish(reference, result);
      } catch (error) {
        // The outcome could not be recorded: answer what every replay will answer once the
        // claim's lease runs out (Pending), never something a replay would contradict.
        log({ outcome: result.state, record: "outcome_unrecorded" });
        if (result.state === "declined")
          await deps.rateLimits.recordDecline(ip, campaignScope(campaign)).catch(() => undefined);
        if (!(error instanceof StoreUnavailableError)) throw error;
        return donationAnswer({ ...record, state: "unknown" });
      }
      log({ outcome: result.state, ...(result.problem_code ? { code: result.problem_code } : {}) });
      if (outcome.kind === "unknown") log({ upstream: outcome.reason });
      if (result.state === "declined") await deps.rateLimits.recordDecline(ip, campaignScope(campaign));
      if (result.state === "succeeded") {
        deps.progress?.changed(campaign);
        await deps.rateLimits.recordSuccess(ip).catch(() => undefined);
      }
      return donationAnswer(record);
    },
  );
}
