/**
 * POST /v1/donations: a card donation with a payment token, guarded by an Idempotency-Key.
 * The attempt is journaled before the upstream call and after it; an attempt whose outcome
 * is unknown is answered 202 Pending and is never sent again.
 */
import { randomBytes } from "node:crypto";
import { Hono, type Context } from "hono";
import {
  DonationRequestSchema,
  type Campaign,
  type DonationRequest,
  type DonationResponse,
} from "../../contract/api";
import { feeCents, fromCents, toCents } from "../../contract/money";
import { normalizeMobile } from "../../contract/phone";
import type { UpstreamDonationRequest } from "../../contract/upstream";
import type { CampaignDirectory } from "../campaigns";
import type { AppEnv } from "../context";
import { fingerprint, readIdempotencyKey } from "../idempotency";
import type { AttemptState, Journal } from "../journal";
import { jsonBody } from "../middleware/json-body";
import type { RateLimits } from "../middleware/rate-limit";
import { PROBLEM_CONTENT_TYPE, ProblemError, problemBody } from "../problem";
import type { DonateOutcome, UpstreamClient } from "../upstream/client";
import { validate } from "../validate";

/** Appended to the upstream's transaction source: it records `api_via_givekit`. */
export const DONATION_SOURCE = "givekit";
/** How long a client should wait before asking again about a key still in flight, in seconds. */
const IN_FLIGHT_RETRY_AFTER_S = "2";

export interface DonationDeps {
  campaigns: CampaignDirectory;
  upstream: UpstreamClient;
  journal: Journal;
  journalSecret: string;
  rateLimits: RateLimits;
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

/** The idempotency scope: keys of one site never meet keys of another. */
function clientScope(c: Context<AppEnv>): string {
  return `origin:${c.req.header("origin") ?? "none"}`;
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

/** The upstream donate body: the campaign's own target and fee rate, source "givekit". */
export function toUpstreamDonation(campaign: Campaign, request: DonationRequest): UpstreamDonationRequest {
  const donor = request.donor;
  const phone = donor.phone ? normalizeMobile(donor.phone) : null;
  const body: UpstreamDonationRequest = {
    shortcode_string: campaign.shortcode,
    keyword_string: campaign.keyword,
    amount: fromCents(toCents(request.amount)),
    source: DONATION_SOURCE,
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

interface Answer {
  status: number;
  body: string;
  state: AttemptState;
  transactionId: string | null;
  code?: string;
}

function problemAnswer(
  code: ProblemError["code"],
  state: AttemptState,
  detail?: string,
  errors?: Record<string, string[]>,
): Answer {
  const problem = new ProblemError(code, detail, errors);
  return {
    status: problem.status,
    body: JSON.stringify(problemBody(code, detail, errors)),
    state,
    transactionId: null,
    code,
  };
}

function answerFor(
  outcome: DonateOutcome,
  request: DonationRequest,
  reference: string,
  charged: { total: number; fee: number },
): Answer {
  switch (outcome.kind) {
    case "answered": {
      if (outcome.status === "Success") {
        const body: DonationResponse = {
          donation: {
            status: "Success",
            message: outcome.message,
            transaction_id: outcome.transactionId ?? "",
            amount: fromCents(charged.total),
            fee_amount: fromCents(charged.fee),
            recurring_frequency: request.recurring_frequency ?? null,
          },
        };
        return {
          status: 200,
          body: JSON.stringify(body),
          state: "succeeded",
          transactionId: outcome.transactionId,
        };
      }
      if (outcome.status === "Error") {
        return problemAnswer("card_declined", "declined", "The card was declined. No money was taken.");
      }
      return problemAnswer(
        "payment_failed",
        "failed",
        "The payment could not be processed. No money was taken.",
      );
    }
    case "rejected": {
      const peerFields = ["peer_fundraiser_id", "peer_fundraiser_team_id"].filter(
        (field) => request[field as "peer_fundraiser_id"] !== undefined,
      );
      // The contract's only documented 400 is attribution (4.3 rule 5); when the upstream names
      // fields, trust those names, else a 400 for a request that named a peer is that case.
      const named = outcome.fields.filter((field) => peerFields.includes(field));
      const aboutPeer = outcome.fields.length > 0 ? named.length > 0 : peerFields.length > 0;
      if (outcome.httpStatus === 400 && aboutPeer) {
        const field = named[0] ?? peerFields[0]!;
        return problemAnswer("invalid_peer", "rejected", "Choose a fundraiser or team of this campaign.", {
          [field]: ["This fundraiser or team is not part of this campaign."],
        });
      }
      if (outcome.fields.includes("credit_card_token")) {
        return problemAnswer("validation_failed", "rejected", "The card could not be used. Enter it again.", {
          credit_card_token: ["The card could not be used. Enter it again."],
        });
      }
      return problemAnswer(
        "upstream_error",
        "rejected",
        "The fundraising service refused the donation. No money was taken.",
      );
    }
    case "unknown":
      return { status: 202, body: pendingBody(reference), state: "unknown", transactionId: null };
  }
}

function respond(answer: { status: number; body: string }, replayed: boolean): Response {
  const headers: Record<string, string> = {
    "Content-Type": answer.status >= 400 ? PROBLEM_CONTENT_TYPE : "application/json",
  };
  if (replayed) headers["Idempotent-Replayed"] = "true";
  return new Response(answer.body, { status: answer.status, headers });
}

/**
 * @example
 * app.route("/", donationRoutes({ campaigns, upstream, journal, journalSecret, rateLimits }));
 */
export function donationRoutes(deps: DonationDeps) {
  return new Hono<AppEnv>().post(
    "/v1/donations",
    // The key is checked before the body is read: without one, nothing else matters.
    async (c, next) => {
      readIdempotencyKey(c.req.header("idempotency-key"));
      await next();
    },
    jsonBody(),
    async (c) => {
      const key = readIdempotencyKey(c.req.header("idempotency-key"));
      const raw = c.get("body");
      const request = validate(DonationRequestSchema, raw);
      const campaign = resolveCampaign(deps.campaigns, request);
      checkAgainstCampaign(campaign, request);

      const scope = clientScope(c);
      const ip = c.get("clientIp");
      const print = fingerprint(deps.journalSecret, "donations", raw);
      const log = (fields: Record<string, string | number | null>) =>
        c.set("logFields", { ...c.get("logFields"), ...fields });

      const claim = deps.journal.begin({ scope, key, endpoint: "donations", fingerprint: print });
      if (claim.kind === "replay") {
        log({ idempotency: "replayed" });
        return respond(claim.answer, true);
      }
      if (claim.kind === "mismatch") {
        throw new ProblemError(
          "idempotency_key_reused",
          "This key was already used with a different body. Make a new key.",
        );
      }
      if (claim.kind === "in_flight") {
        throw new ProblemError(
          "request_in_progress",
          "The first request with this key is still being processed.",
          undefined,
          {
            "Retry-After": IN_FLIGHT_RETRY_AFTER_S,
          },
        );
      }

      try {
        await deps.rateLimits.assertNotBlocked(ip);
        await deps.rateLimits.consume("donations", ip);
      } catch (error) {
        deps.journal.release(scope, key);
        throw error;
      }

      const amountCents = toCents(request.amount);
      const fee = request.cover_fee ? feeCents(amountCents, campaign.fee_rate) : 0;
      const reference = newReference();
      log({ reference });
      deps.journal.recordAttempt({
        reference,
        idempotency_key: key,
        client_scope: scope,
        client_ip: ip,
        fingerprint: print,
        shortcode: campaign.shortcode,
        keyword: campaign.keyword,
        amount: fromCents(amountCents + fee),
        fee_amount: fromCents(fee),
        recurring_frequency: request.recurring_frequency ?? null,
        peer_fundraiser_id: request.peer_fundraiser_id ?? null,
        peer_fundraiser_team_id: request.peer_fundraiser_team_id ?? null,
      });
      // The claim and the attempt are on disk before anything is sent.
      await deps.journal.durable();

      let outcome: DonateOutcome;
      try {
        outcome = await deps.upstream.donate(toUpstreamDonation(campaign, request));
      } catch (error) {
        if (error instanceof ProblemError) {
          // Nothing reached the upstream (no connection, or no session): the same key may be retried.
          deps.journal.finishAttempt(reference, "not_sent", null, null);
          deps.journal.release(scope, key);
          await deps.journal.durable();
          log({ outcome: "not_sent" });
          throw error;
        }
        // A fault of our own after the call began: we cannot say it was not sent.
        log({ error: error instanceof Error ? error.message : "unknown error" });
        outcome = { kind: "unknown", httpStatus: null, reason: "internal error" };
      }

      const answer = answerFor(outcome, request, reference, { total: amountCents + fee, fee });
      deps.journal.finishAttempt(reference, answer.state, outcome.httpStatus, answer.transactionId);
      deps.journal.complete(scope, key, answer, reference);
      await deps.journal.durable();
      log({ outcome: answer.state, ...(answer.code ? { code: answer.code } : {}) });
      if (answer.state === "unknown" && outcome.kind === "unknown") log({ upstream: outcome.reason });
      if (answer.state === "declined") await deps.rateLimits.recordDecline(ip);
      return respond(answer, false);
    },
  );
}
