/**
 * A donation to and from the fundraising service: the donate body the proxy sends for a request,
 * and what the service's answer means for the attempt's record.
 */
import type { Campaign, DonationRequest } from "../../contract/api";
import { memoWithDedication } from "../../contract/dedication";
import { fromCents, toCents } from "../../contract/money";
import { normalizeMobile } from "../../contract/phone";
import type { UpstreamDonationRequest } from "../../contract/upstream";
import { donationSource } from "../reconcile/match";
import type { AttemptOutcome } from "../store";
import type { DonateOutcome } from "../upstream/client";

/**
 * The upstream donate body: the campaign's own target and fee rate, and a source tagged with the
 * channel (the element's `source`, else the campaign's) and the attempt's reference (the report
 * gives it back as `api_via_givekit.<channel>.<reference>`, reconcile/match.ts).
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
    source: donationSource(reference, request.source ?? campaign.source),
    credit_card_token: request.credit_card_token,
    email: donor.email,
  };
  if (request.cover_fee) body.fee_rate = Number(campaign.fee_rate);
  if (request.form_id) body.form_id = request.form_id;
  if (request.recurring_frequency) body.recurring_frequency = request.recurring_frequency;
  const memo = memoWithDedication(request.memo, request.dedication);
  if (memo) body.memo = memo;
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

/** An outcome of a donate that was sent (or may have been): one the attempt records. */
export type SentOutcome = Exclude<DonateOutcome, { kind: "not_sent" }>;

/** What an outcome means for the attempt's record; the answer is then built from that record. */
export function outcomeOf(outcome: SentOutcome, request: DonationRequest): AttemptOutcome {
  const base = { upstream_status: outcome.httpStatus, transaction_id: null, message: null };
  const refused = (problem_code: string, problem_field: string | null = null): AttemptOutcome => ({
    ...base,
    state: "rejected",
    problem_code,
    problem_field,
  });
  switch (outcome.kind) {
    case "succeeded":
      return {
        ...base,
        state: "succeeded",
        transaction_id: outcome.transactionId,
        message: outcome.message,
        problem_code: null,
        problem_field: null,
      };
    case "declined":
      return { ...base, state: "declined", problem_code: null, problem_field: null };
    case "fatal":
      return { ...base, state: "failed", problem_code: null, problem_field: null };
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
