/**
 * The events a donation's recorded outcome tells of, as outbox rows for each endpoint that wants
 * them (to be written in the transaction that records the outcome). Fields are picked one by one
 * from the request: the card token, a card number or an API token never reach a payload.
 */
import type { Campaign, DonationRequest } from "../../contract/api";
import { toCents } from "../../contract/money";
import { campaignScope } from "../campaign/directory";
import type { AttemptOutcome, AttemptRecord, NewConsent, OutboxEvent, Reconciliation } from "../store";
import type { WebhookEndpoint } from "./endpoints";
import { refusalOf } from "../donations/answer";
import { donorNames, giftData, makeEvent, type GivekitEvent } from "./events";

/** One event for one endpoint, as the store's outbox keeps it. */
export type OutboxEventRow = OutboxEvent;

export function attemptEvents(
  campaign: Campaign,
  request: DonationRequest,
  reference: string,
  outcome: Pick<AttemptOutcome, "state" | "transaction_id" | "problem_code">,
  now = new Date(),
): GivekitEvent[] {
  const gift = giftData({
    reference,
    campaign_id: campaignScope(campaign),
    amount_cents: toCents(request.amount),
    recurring_frequency: request.recurring_frequency,
    anonymous: request.anonymous,
    donor: request.donor,
  });
  if (outcome.state === "declined") {
    // The code the donor's answer carried (answer.ts's refusalOf), as the GUIDE lists it.
    const reason = refusalOf(outcome)?.code;
    return [makeEvent("donation.declined", { ...gift, ...(reason ? { reason } : {}) }, now)];
  }
  // Answered Pending: told as a charged gift would be, held until the reconciler settles it.
  if (outcome.state !== "succeeded" && outcome.state !== "unknown") return [];
  const events: GivekitEvent[] = [
    makeEvent("donation.succeeded", { ...gift, transaction_id: outcome.transaction_id ?? undefined }, now),
  ];
  if (request.dedication) {
    const { kind, name, notify_email } = request.dedication;
    events.push(
      makeEvent(
        "dedication.made",
        {
          reference,
          campaign_id: gift.campaign_id,
          kind,
          honoree_name: name,
          ...(notify_email ? { notify_email } : {}),
          donor: request.anonymous ? undefined : donorNames(request.donor),
          amount_cents: gift.amount_cents,
        },
        now,
      ),
    );
  }
  return events;
}

/**
 * The outbox rows of a donation's recorded outcome: its events for each endpoint that wants them;
 * those of a gift answered Pending are held until the reconciler settles it (sent if charged).
 */
export function attemptOutbox(
  endpoints: readonly WebhookEndpoint[],
  campaign: Campaign,
  request: DonationRequest,
  reference: string,
  outcome: Pick<AttemptOutcome, "state" | "transaction_id" | "problem_code">,
): OutboxEventRow[] {
  if (endpoints.length === 0) return [];
  return outboxRows(endpoints, attemptEvents(campaign, request, reference, outcome), {
    held: outcome.state === "unknown",
  });
}

/**
 * The outbox rows of a consent's `optin.recorded`: none, and nothing built, with no endpoint (the
 * opt-in path is the proxy's busiest; it pays nothing for webhooks it does not send).
 */
export function optinOutbox(
  endpoints: readonly WebhookEndpoint[],
  consent: Parameters<typeof optinEvents>[0],
  reference?: string,
): OutboxEventRow[] {
  if (endpoints.length === 0) return [];
  return outboxRows(endpoints, optinEvents(consent, reference));
}

/** One row per event and endpoint that asked for its type. */
export function outboxRows(
  endpoints: readonly WebhookEndpoint[],
  events: readonly GivekitEvent[],
  options: { held?: boolean } = {},
): OutboxEventRow[] {
  const rows: OutboxEventRow[] = [];
  for (const event of events) {
    const body = JSON.stringify(event);
    const orderKey = "reference" in event.data && event.data.reference ? event.data.reference : event.id;
    for (const endpoint of endpoints) {
      if (!endpoint.events.includes(event.type)) continue;
      rows.push({
        eventId: event.id,
        eventType: event.type,
        endpoint: endpoint.url,
        orderKey,
        body,
        createdAt: Date.parse(event.created),
        ...(options.held ? { held: true } : {}),
      });
    }
  }
  return rows;
}

/** What the reconciler found an unknown attempt became, as `donation.settled`. */
export function settledEvents(
  attempt: Pick<
    AttemptRecord,
    "reference" | "shortcode" | "keyword" | "amount" | "fee_amount" | "recurring_frequency"
  >,
  resolution: Reconciliation,
  now = new Date(),
): GivekitEvent[] {
  const gift = giftData({
    reference: attempt.reference,
    campaign_id: campaignScope(attempt),
    // The gift without the fee the donor covered, as donation.succeeded tells it.
    amount_cents: toCents(attempt.amount) - toCents(attempt.fee_amount),
    recurring_frequency: attempt.recurring_frequency,
  });
  const charged = resolution.state === "succeeded";
  return [
    makeEvent(
      "donation.settled",
      {
        ...gift,
        outcome: charged ? "charged" : "not_charged",
        ...(charged && resolution.transaction_id ? { transaction_id: resolution.transaction_id } : {}),
      },
      now,
    ),
  ];
}

/** A consent record kept (the opt-in route, or a donation's ticked SMS box), as `optin.recorded`. */
export function optinEvents(
  consent: Pick<NewConsent, "mobilenumber" | "list" | "keyword" | "shortcode" | "consent_text_sha256">,
  reference?: string,
  now = new Date(),
): GivekitEvent[] {
  const campaign_id =
    consent.list ?? campaignScope({ shortcode: consent.shortcode ?? "", keyword: consent.keyword ?? "" });
  return [
    makeEvent(
      "optin.recorded",
      {
        ...(reference ? { reference } : {}),
        campaign_id,
        phone: consent.mobilenumber,
        consent_text_sha256: consent.consent_text_sha256,
        recorded_at: now.toISOString(),
      },
      now,
    ),
  ];
}
