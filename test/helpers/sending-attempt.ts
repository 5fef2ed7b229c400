/**
 * A donation attempt of HOPE@71777 at the upstream (its key claimed, the attempt started), as the
 * donation route leaves it before the upstream answers: for the store's, the reconciler's and the
 * outbox's tests.
 */
import type { Claim, Store } from "../../proxy/store/types";

export async function sendingAttempt(
  store: Store,
  reference: string,
  options: { scope?: string; amount?: string } = {},
): Promise<Claim> {
  const scope = options.scope ?? "origin:https://shelter.example";
  const claimed = await store.claimKey({ scope, key: reference, endpoint: "donations", fingerprint: "f" });
  if (claimed.kind !== "started") throw new Error(`expected a claim, got ${claimed.kind}`);
  await store.startAttempt(claimed.claim, {
    reference,
    idempotency_key: reference,
    client_scope: scope,
    client_ip: "203.0.113.5",
    fingerprint: "f",
    shortcode: "71777",
    keyword: "HOPE",
    amount: options.amount ?? "25.00",
    fee_amount: "0.00",
    recurring_frequency: null,
    peer_fundraiser_id: null,
    peer_fundraiser_team_id: null,
    utm: null,
  });
  return claimed.claim;
}
