/** The SQLite store's donation attempts: recorded before the upstream call and after it. */
import type Database from "better-sqlite3";
import { ClaimLostError } from "../errors";
import type {
  AttemptOutcome,
  AttemptFilter,
  AttemptRecord,
  Reconciliation,
  Claim,
  NewAttempt,
} from "../types";

export function sqliteAttempts(db: Database.Database, options: { leaseMs: number }) {
  const bindClaim = db.prepare<[string, number, string, string, string, number]>(
    `UPDATE idempotency_keys SET reference = ?, lease_until = ?
     WHERE client_scope = ? AND idempotency_key = ? AND claim_token = ? AND state = 'in_flight' AND lease_until > ?`,
  );
  const insertAttempt = db.prepare(
    `INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode, keyword,
       amount, fee_amount, recurring_frequency, peer_fundraiser_id, peer_fundraiser_team_id, utm, form_session, state, created_at, updated_at)
     VALUES (@reference, @idempotency_key, @client_scope, @client_ip, @fingerprint, @shortcode, @keyword,
       @amount, @fee_amount, @recurring_frequency, @peer_fundraiser_id, @peer_fundraiser_team_id, @utm, @form_session, 'sending', @created_at, @created_at)`,
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

  const selectByFilter = db.prepare<[{ state: string | null; since: string | null }], AttemptRecord>(
    `SELECT * FROM donation_attempts WHERE (@state IS NULL OR state = @state) AND (@since IS NULL OR created_at >= @since)
     ORDER BY created_at, rowid`,
  );
  // With a state, `state = @state` alone lets SQLite search donation_attempts_state_created; the
  // statement above, with its OR, walks every attempt ever made to find the few unknown ones.
  const selectByState = db.prepare<[{ state: string; since: string | null }], AttemptRecord>(
    `SELECT * FROM donation_attempts WHERE state = @state AND (@since IS NULL OR created_at >= @since)
     ORDER BY created_at, rowid`,
  );
  const takeLease = db.prepare<[{ reference: string; owner: string; until: number; now: number }]>(
    `INSERT INTO reconcile_leases (reference, owner, lease_until) VALUES (@reference, @owner, @until)
     ON CONFLICT (reference) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
     WHERE reconcile_leases.lease_until <= @now OR reconcile_leases.owner = excluded.owner`,
  );
  const giveBackLeases = db.prepare<[string]>("DELETE FROM reconcile_leases WHERE owner = ?");
  const resolveUnknown = db.prepare(
    `UPDATE donation_attempts SET state = @state, transaction_id = @transaction_id, note = NULL, updated_at = @updated_at
     WHERE reference = @reference AND state = 'unknown'`,
  );
  // INDEXED BY: left to itself, SQLite searches by state ('succeeded': nearly every attempt kept).
  const selectClaimed = db.prepare<[string], { transaction_id: string }>(
    `SELECT transaction_id FROM donation_attempts INDEXED BY donation_attempts_transaction
     WHERE transaction_id IN (SELECT value FROM json_each(?)) AND state = 'succeeded'`,
  );
  const noteUnknown = db.prepare<[string, string, string]>(
    "UPDATE donation_attempts SET note = ?, updated_at = ? WHERE reference = ? AND state = 'unknown'",
  );

  return {
    /** Binds the attempt to a claim still held and records it `sending`; throws ClaimLostError otherwise. */
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
      insertAttempt.run({
        ...attempt,
        form_session: attempt.form_session ?? null,
        created_at: new Date(now).toISOString(),
      });
    },
    /** True when the outcome was recorded (the attempt was still sending or unknown). */
    finish(reference: string, outcome: AttemptOutcome, now: number): boolean {
      return (
        finishAttempt.run({ ...outcome, reference, updated_at: new Date(now).toISOString() }).changes === 1
      );
    },
    notSent(reference: string, now: number): void {
      markNotSent.run(new Date(now).toISOString(), reference);
    },
    get: (reference: string) => selectAttempt.get(reference),
    all: () => selectAttempts.all(),
    list: (filter: AttemptFilter) =>
      filter.state === undefined
        ? selectByFilter.all({ state: null, since: filter.since ?? null })
        : selectByState.all({ state: filter.state, since: filter.since ?? null }),
    lease: (reference: string, owner: string, ms: number, now: number) =>
      takeLease.run({ reference, owner, until: now + ms, now }).changes === 1,
    release: (owner: string) => void giveBackLeases.run(owner),
    resolve(reference: string, resolution: Reconciliation, now: number): boolean {
      return (
        resolveUnknown.run({ ...resolution, reference, updated_at: new Date(now).toISOString() }).changes ===
        1
      );
    },
    claimed: (transactionIds: readonly string[]) =>
      selectClaimed.all(JSON.stringify(transactionIds)).map((row) => row.transaction_id),
    note(reference: string, note: string, now: number): void {
      noteUnknown.run(note, new Date(now).toISOString(), reference);
    },
  };
}
