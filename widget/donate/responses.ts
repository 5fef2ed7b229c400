import type { Campaign, DonationResponse, Peer } from "../../contract/api";
import { CURRENCY_PATTERN, RATE_PATTERN, isAmount, matches } from "../../contract/patterns";

/*
 * The proxy's answers, read as contract/api.ts's types. They are checked field by field by
 * hand rather than with CampaignSchema and friends: those pull zod's union, default and
 * nullable parsers into widget.js, which has a 30 KB budget. An answer of the wrong shape
 * is refused all the same.
 */

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : null;
const isText = (value: unknown): value is string => typeof value === "string";
const FREQUENCIES = new Set(["monthly", "quarterly", "annually"]);

export function readCampaign(body: unknown): Campaign | null {
  const c = fieldsOf(body);
  if (!c) return null;
  const frequencies = c.recurring_frequencies;
  const ok =
    isText(c.shortcode) &&
    isText(c.keyword) &&
    matches(RATE_PATTERN, c.fee_rate) &&
    isAmount(c.min_amount) &&
    isAmount(c.max_amount) &&
    matches(CURRENCY_PATTERN, c.currency) &&
    Array.isArray(frequencies) &&
    frequencies.every((f) => FREQUENCIES.has(f as string)) &&
    typeof c.peer_fundraising === "boolean";
  return ok ? (c as unknown as Campaign) : null;
}

export function readPeers(body: unknown): Peer[] | null {
  const peers = fieldsOf(body)?.peers;
  if (!Array.isArray(peers)) return null;
  const valid = peers.every((value) => {
    const p = fieldsOf(value);
    return (
      p !== null &&
      isText(p.id) &&
      isText(p.name) &&
      (p.kind === "fundraiser" || p.kind === "team") &&
      (p.team_name === null || p.team_name === undefined || isText(p.team_name))
    );
  });
  return valid ? (peers as Peer[]) : null;
}

export function readDonation(body: unknown): DonationResponse | null {
  const d = fieldsOf(fieldsOf(body)?.donation);
  if (!d) return null;
  const ok =
    d.status === "Pending"
      ? isText(d.reference)
      : d.status === "Success" && isText(d.transaction_id) && isAmount(d.amount) && isAmount(d.fee_amount);
  return ok ? (body as DonationResponse) : null;
}
