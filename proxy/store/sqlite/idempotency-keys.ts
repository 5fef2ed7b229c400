/** The SQLite store's idempotency keys: atomic claims (one connection), leases, retention. */
import type Database from "better-sqlite3";
import { decideClaim, newClaimToken, type KeyRow } from "../claims";
import type { AttemptRecord, Claim, ClaimRequest, ClaimResult } from "../types";

export function sqliteKeys(db: Database.Database, options: { retentionMs: number; leaseMs: number }) {
  const selectKey = db.prepare<[string, string], KeyRow>(
    `SELECT k.fingerprint, k.state, k.reference, k.created_at, k.lease_until, a.state AS attempt_state
     FROM idempotency_keys k LEFT JOIN donation_attempts a ON a.reference = k.reference
     WHERE k.client_scope = ? AND k.idempotency_key = ?`,
  );
  const upsertClaim = db.prepare<[string, string, string, string, string, number, number]>(
    `INSERT INTO idempotency_keys (client_scope, idempotency_key, endpoint, fingerprint, state, claim_token, created_at, lease_until)
     VALUES (?, ?, ?, ?, 'in_flight', ?, ?, ?)
     ON CONFLICT (client_scope, idempotency_key) DO UPDATE SET endpoint = excluded.endpoint,
       fingerprint = excluded.fingerprint, state = 'in_flight', claim_token = excluded.claim_token,
       created_at = excluded.created_at, lease_until = excluded.lease_until, reference = NULL, completed_at = NULL`,
  );
  const takeOver = db.prepare<[string, number, string, string]>(
    "UPDATE idempotency_keys SET claim_token = ?, lease_until = ? WHERE client_scope = ? AND idempotency_key = ?",
  );
  const selectAttempt = db.prepare<[string], AttemptRecord>(
    "SELECT * FROM donation_attempts WHERE reference = ?",
  );
  const expireAttempt = db.prepare<[string, string]>(
    "UPDATE donation_attempts SET state = 'unknown', updated_at = ? WHERE reference = ? AND state = 'sending'",
  );
  const finishKeyOf = db.prepare<[number, string]>(
    "UPDATE idempotency_keys SET state = 'done', completed_at = ?, claim_token = NULL, lease_until = NULL WHERE reference = ?",
  );
  const releaseKey = db.prepare<[string, string, string]>(
    "DELETE FROM idempotency_keys WHERE client_scope = ? AND idempotency_key = ? AND claim_token = ?",
  );
  const expiredClaims = db.prepare<[number], { reference: string | null }>(
    "SELECT reference FROM idempotency_keys WHERE state = 'in_flight' AND lease_until <= ?",
  );
  const forgetUnsent = db.prepare<[number]>(
    "DELETE FROM idempotency_keys WHERE state = 'in_flight' AND lease_until <= ? AND reference IS NULL",
  );
  const purgeKeys = db.prepare<[number]>(
    "DELETE FROM idempotency_keys WHERE state = 'done' AND created_at < ?",
  );

  /** An attempt whose proxy died: unknown, and its key replays it. */
  function expire(reference: string, now: number): void {
    expireAttempt.run(new Date(now).toISOString(), reference);
    finishKeyOf.run(now, reference);
  }

  return {
    /** Runs inside the group commit's open transaction, on the one connection: atomic. */
    claim(request: ClaimRequest, now: number): ClaimResult {
      const row = selectKey.get(request.scope, request.key);
      const decision = decideClaim(row, request.fingerprint, now, options.retentionMs);
      const claim: Claim = { scope: request.scope, key: request.key, token: newClaimToken() };
      switch (decision) {
        case "claim":
          upsertClaim.run(
            request.scope,
            request.key,
            request.endpoint,
            request.fingerprint,
            claim.token,
            now,
            now + options.leaseMs,
          );
          return { kind: "started", claim };
        case "take_over":
          takeOver.run(claim.token, now + options.leaseMs, request.scope, request.key);
          return { kind: "started", claim };
        case "expire_attempt":
          expire(row!.reference!, now);
          return { kind: "replay", attempt: selectAttempt.get(row!.reference!)! };
        case "replay":
          return { kind: "replay", attempt: selectAttempt.get(row!.reference!)! };
        case "mismatch":
        case "in_flight":
          return { kind: decision };
      }
    },
    release(claim: Claim): void {
      releaseKey.run(claim.scope, claim.key, claim.token);
    },
    finishKeyOf(reference: string, now: number): void {
      finishKeyOf.run(now, reference);
    },
    /** Claims whose lease ended at or before `cutoff`; returns how many attempts became unknown. */
    expireLeases(cutoff: number, now: number): number {
      let expired = 0;
      for (const { reference } of expiredClaims.all(cutoff)) {
        if (!reference) continue;
        expire(reference, now);
        expired++;
      }
      forgetUnsent.run(cutoff);
      return expired;
    },
    purge(now: number): number {
      return purgeKeys.run(now - options.retentionMs).changes;
    },
  };
}
