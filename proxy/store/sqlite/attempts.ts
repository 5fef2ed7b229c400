/** The SQLite store's donation attempts: journaled before the upstream call and after it. */
import type Database from "better-sqlite3";
import {
  ClaimLostError,
  type AttemptOutcome,
  type AttemptRecord,
  type Claim,
  type NewAttempt,
} from "../types";

export function sqliteAttempts(db: Database.Database, options: { leaseMs: number }) {
  const bindClaim = db.prepare<[string, number, string, string, string, number]>(
    `UPDATE idempotency_keys SET reference = ?, lease_until = ?
     WHERE client_scope = ? AND idempotency_key = ? AND claim_token = ? AND state = 'in_flight' AND lease_until > ?`,
  );
  const insertAttempt = db.prepare(
    `INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode, keyword,
       amount, fee_amount, recurring_frequency, peer_fundraiser_id, peer_fundraiser_team_id, state, created_at, updated_at)
     VALUES (@reference, @idempotency_key, @client_scope, @client_ip, @fingerprint, @shortcode, @keyword,
       @amount, @fee_amount, @recurring_frequency, @peer_fundraiser_id, @peer_fundraiser_team_id, 'sending', @created_at, @created_at)`,
  );
  // A late answer (after the lease ran out and the attempt became unknown) is still the truth.
  const finishAttempt = db.prepare(
    `UPDATE donation_attempts SET state = @state, upstream_status = @upstream_status, transaction_id = @transaction_id,
       message = @message, problem_code = @problem_code, problem_field = @problem_field, updated_at = @updated_at
     WHERE reference = @reference AND state IN ('sending', 'unknown')`,
  );
  const markNotSent = db.prepare<[string, string]>(
    "UPDATE donation_attempts SET state = 'not_sent', updated_at = ? WHERE reference = ? AND state = 'sending'",
  );
  const selectAttempt = db.prepare<[string], AttemptRecord>(
    "SELECT * FROM donation_attempts WHERE reference = ?",
  );
  const selectAttempts = db.prepare<[], AttemptRecord>(
    "SELECT * FROM donation_attempts ORDER BY created_at, rowid",
  );

  return {
    /** Binds the attempt to a claim still held and journals it `sending`; throws ClaimLostError otherwise. */
    start(claim: Claim, attempt: NewAttempt, now: number): void {
      const bound = bindClaim.run(
        attempt.reference,
        now + options.leaseMs,
        claim.scope,
        claim.key,
        claim.token,
        now,
      );
      if (bound.changes === 0) throw new ClaimLostError();
      insertAttempt.run({ ...attempt, created_at: new Date(now).toISOString() });
    },
    finish(reference: string, outcome: AttemptOutcome, now: number): void {
      finishAttempt.run({ ...outcome, reference, updated_at: new Date(now).toISOString() });
    },
    notSent(reference: string, now: number): void {
      markNotSent.run(new Date(now).toISOString(), reference);
    },
    get: (reference: string) => selectAttempt.get(reference),
    all: () => selectAttempts.all(),
  };
}
