/**
 * The events givekit tells a nonprofit's own systems of (proxy/GUIDE.md, "Webhooks"). Each has a
 * stable id (a receiver that gets one twice can tell), a type and a version. Builders copy named
 * fields only: a payload never holds a card number, a payment token, an API token or a CVV.
 */
import { randomUUID } from "node:crypto";
import { donorName } from "../../contract/api";
import type { DedicationKind } from "../../contract/dedication";

export const EVENT_TYPES = [
  "donation.succeeded",
  "donation.declined",
  "donation.settled",
  "optin.recorded",
  "dedication.made",
  "alert.defence_mode",
  "alert.breaker_open",
  "alert.upstream_unreachable",
  "alert.webhooks_given_up",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Bumped when a payload changes in a way a receiver must know of. */
export const EVENT_VERSION = 1;

export interface GiftData {
  /** The donation's reference (the idempotency-keyed attempt), the key of "in order per donation". */
  reference: string;
  campaign_id: string;
  amount_cents: number;
  currency: string;
  recurring_frequency?: string;
  donor?: GiftDonor;
  anonymous?: boolean;
}

/**
 * Who gave: `name` always (the full name as given, or the first and last names joined: see
 * contract/api.ts's donorName), the two names when the form asked for them apart.
 */
export interface GiftDonor {
  name: string;
  first_name?: string;
  last_name?: string;
  email?: string;
}

export type EventData = {
  "donation.succeeded": GiftData & { transaction_id?: string };
  "donation.declined": GiftData & { reason?: string };
  "donation.settled": GiftData & { outcome: "charged" | "not_charged"; transaction_id?: string };
  "optin.recorded": {
    reference?: string;
    campaign_id: string;
    phone?: string;
    /** SHA-256 of the disclosure text the person saw, as the consent record keeps it. */
    consent_text_sha256: string;
    recorded_at: string;
  };
  "alert.defence_mode": AlertData;
  "alert.breaker_open": AlertData;
  "alert.upstream_unreachable": AlertData;
  "alert.webhooks_given_up": AlertData & { endpoint: string; event_type: string };
  "dedication.made": {
    reference: string;
    campaign_id: string;
    kind: DedicationKind;
    honoree_name: string;
    /** Who to tell of the gift, when the donor gave an address. */
    notify_email?: string;
    donor?: Omit<GiftDonor, "email">;
    amount_cents?: number;
  };
};

/**
 * What an alert says (proxy/webhooks/alerts.ts), for a bridge to page someone with: `summary` a
 * sentence for a person, the rest to filter on. Never an address, a card or a donor.
 */
export interface AlertData {
  summary: string;
  /** "71777/HOPE", "*" (every campaign), "client" (one client, never named), "bin:400000". */
  scope?: string;
  /** Why (a defence signal, a breaker's budget). */
  reason?: string;
  count?: number;
  /** Since when it holds (ISO 8601). */
  since?: string;
}

export interface GivekitEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  version: number;
  created: string;
  data: EventData[T];
}

export function makeEvent<T extends EventType>(
  type: T,
  data: EventData[T],
  now = new Date(),
): GivekitEvent<T> {
  return { id: `evt_${randomUUID()}`, type, version: EVENT_VERSION, created: now.toISOString(), data };
}

/** The donor's names as an event carries them: its `name` however given, the two names when given apart. */
export function donorNames(donor: {
  full_name?: string;
  first_name?: string;
  last_name?: string;
}): Omit<GiftDonor, "email"> {
  const names: Omit<GiftDonor, "email"> = { name: donorName(donor) };
  if (donor.first_name) names.first_name = donor.first_name;
  if (donor.last_name) names.last_name = donor.last_name;
  return names;
}

/** The gift fields an event may carry, picked one by one from whatever the caller holds. */
export function giftData(source: {
  reference: string;
  campaign_id: string;
  amount_cents: number;
  currency?: string;
  recurring_frequency?: string | null;
  anonymous?: boolean;
  donor?: { full_name?: string; first_name?: string; last_name?: string; email?: string } | null;
}): GiftData {
  const data: GiftData = {
    reference: source.reference,
    campaign_id: source.campaign_id,
    amount_cents: source.amount_cents,
    currency: source.currency ?? "USD",
  };
  if (source.recurring_frequency) data.recurring_frequency = source.recurring_frequency;
  if (source.anonymous !== undefined) data.anonymous = source.anonymous;
  if (source.donor) data.donor = { ...donorNames(source.donor), email: source.donor.email };
  return data;
}
