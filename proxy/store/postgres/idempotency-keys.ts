/**
 * The PostgreSQL store's idempotency keys: claimed atomically across every proxy (the primary key
 * for a new one, a row lock for one already there), released, expired when their proxy died, and
 * forgotten past the retention window.
 */
import { decideClaim, newClaimToken, type KeyRow } from "../claims";
import type { Claim, ClaimRequest, ClaimResult, IdempotencyStore } from "../types";
import { selectAttempt } from "./attempts";
import type { PgContext } from "./connection";
import { COUNTERS_TABLE, NOTES_TABLE } from "./schema";

/** The advisory lock key of the retention purge: one proxy purges at a time. */
const PURGE_LOCK = "7365700";

const KEY_ROW = `SELECT k.fingerprint, k.state, k.reference, k.created_at::float8 AS created_at,
  k.lease_until::float8 AS lease_until, a.state AS attempt_state
  FROM idempotency_keys k LEFT JOIN donation_attempts a ON a.reference = k.reference
  WHERE k.client_scope = $1 AND k.idempotency_key = $2 FOR UPDATE OF k`;

export function pgIdempotencyKeys(ctx: PgContext): IdempotencyStore {
  const { query, transaction, lazy, now, leaseMs, retentionMs } = ctx;

  /** The slow path of a claim: the key has a record; decide under its row lock. */
  function claimExisting(request: ClaimRequest, claim: Claim): Promise<ClaimResult | null> {
    return transaction(async (client) => {
      const at = now();
      const { rows } = await client.query<KeyRow>(KEY_ROW, [request.scope, request.key]);
      const row = rows[0];
      // Released or purged since the insert met it: try again from the start.
      if (!row) return null;
      const decision = decideClaim(row, request.fingerprint, at, retentionMs);
      switch (decision) {
        case "claim":
          await client.query(
            `UPDATE idempotency_keys SET endpoint = $3, fingerprint = $4, state = 'in_flight', reference = NULL,
               claim_token = $5, lease_until = $6, created_at = $7, completed_at = NULL
             WHERE client_scope = $1 AND idempotency_key = $2`,
            [
              request.scope,
              request.key,
              request.endpoint,
              request.fingerprint,
              claim.token,
              at + leaseMs,
              at,
            ],
          );
          return { kind: "started", claim };
        case "take_over":
          await client.query(
            "UPDATE idempotency_keys SET claim_token = $3, lease_until = $4 WHERE client_scope = $1 AND idempotency_key = $2",
            [request.scope, request.key, claim.token, at + leaseMs],
          );
          return { kind: "started", claim };
        case "expire_attempt":
          await client.query(
            "UPDATE donation_attempts SET state = 'unknown', updated_at = $2 WHERE reference = $1 AND state = 'sending'",
            [row.reference, new Date(at).toISOString()],
          );
          await client.query(
            `UPDATE idempotency_keys SET state = 'done', completed_at = $3, claim_token = NULL, lease_until = NULL
             WHERE client_scope = $1 AND idempotency_key = $2`,
            [request.scope, request.key, at],
          );
          return { kind: "replay", attempt: await selectAttempt(client, row.reference!) };
        case "replay":
          return { kind: "replay", attempt: await selectAttempt(client, row.reference!) };
        case "mismatch":
        case "in_flight":
          return { kind: decision };
      }
    }, lazy);
  }

  return {
    async claimKey(request) {
      for (let round = 0; ; round++) {
        const claim: Claim = { scope: request.scope, key: request.key, token: newClaimToken() };
        const at = now();
        // The common case, a new key, in one statement: the primary key makes it atomic.
        const inserted = await query(
          `INSERT INTO idempotency_keys (client_scope, idempotency_key, endpoint, fingerprint, state, claim_token, created_at, lease_until)
           VALUES ($1, $2, $3, $4, 'in_flight', $5, $6, $7) ON CONFLICT DO NOTHING`,
          [request.scope, request.key, request.endpoint, request.fingerprint, claim.token, at, at + leaseMs],
          lazy,
          "givekit-claim",
        );
        if (inserted.rowCount === 1) return { kind: "started", claim };
        const result = await claimExisting(request, claim);
        if (result) return result;
        if (round >= 3) return { kind: "in_flight" };
      }
    },

    async releaseKey(claim) {
      await query(
        "DELETE FROM idempotency_keys WHERE client_scope = $1 AND idempotency_key = $2 AND claim_token = $3",
        [claim.scope, claim.key, claim.token],
        lazy,
      );
    },

    async expireLeases() {
      const at = now();
      // SKIP LOCKED: a key another proxy is deciding on right now is left to it.
      const { rows } = await query<{ expired: number }>(
        `WITH expired AS (
           SELECT client_scope, idempotency_key, reference FROM idempotency_keys
           WHERE state = 'in_flight' AND lease_until <= $1 FOR UPDATE SKIP LOCKED),
         forgotten AS (
           DELETE FROM idempotency_keys k USING expired e
           WHERE e.reference IS NULL AND k.client_scope = e.client_scope AND k.idempotency_key = e.idempotency_key),
         unknown AS (
           UPDATE donation_attempts a SET state = 'unknown', updated_at = $2
           FROM expired e WHERE a.reference = e.reference AND a.state = 'sending' RETURNING 1),
         finished AS (
           UPDATE idempotency_keys k SET state = 'done', completed_at = $1, claim_token = NULL, lease_until = NULL
           FROM expired e WHERE e.reference IS NOT NULL AND k.client_scope = e.client_scope AND k.idempotency_key = e.idempotency_key)
         SELECT count(*)::int AS expired FROM unknown`,
        [at, new Date(at).toISOString()],
        lazy,
      );
      return rows[0]!.expired;
    },

    async purgeExpired() {
      return transaction(async (client) => {
        const { rows } = await client.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_xact_lock($1) AS locked",
          [PURGE_LOCK],
        );
        // Another proxy is purging right now: its purge is this one's too.
        if (!rows[0]!.locked) return 0;
        const purged = await client.query(
          "DELETE FROM idempotency_keys WHERE state = 'done' AND created_at < $1",
          [now() - retentionMs],
        );
        await client.query(`DELETE FROM ${COUNTERS_TABLE} WHERE expire < $1`, [now()]);
        await client.query(`DELETE FROM ${NOTES_TABLE} WHERE expire < $1`, [now()]);
        return purged.rowCount ?? 0;
      }, lazy);
    },
  };
}
