/**
 * The PostgreSQL store's donation attempts: recorded `sending` (durably, with the claim renewed)
 * before the upstream call, then with their outcome; and their reconciliation, for attempts whose
 * outcome is unknown.
 */
import type { ClientBase } from "pg";
import { ClaimLostError } from "../errors";
import type { AttemptRecord, AttemptStore, ReconcileStore } from "../types";
import type { PgContext } from "./connection";
import { outboxInsert } from "./outbox";

export const ATTEMPT_COLUMNS = `reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode, keyword, amount,
  fee_amount, recurring_frequency, peer_fundraiser_id, peer_fundraiser_team_id, utm, state, upstream_status, transaction_id,
  message, problem_code, problem_field, note, created_at, updated_at, form_session`;

/** An attempt, read inside a transaction (a claim's replay). */
export async function selectAttempt(client: ClientBase, reference: string): Promise<AttemptRecord> {
  const { rows } = await client.query<AttemptRecord>(
    `SELECT ${ATTEMPT_COLUMNS} FROM donation_attempts WHERE reference = $1`,
    [reference],
  );
  return rows[0]!;
}

export function pgAttempts({ query, pool, lazy, now, leaseMs }: PgContext): AttemptStore {
  return {
    async startAttempt(claim, attempt) {
      const at = now();
      const created = new Date(at).toISOString();
      // One statement: the attempt exists only if the claim was still ours (and its lease renewed).
      const result = await query(
        `WITH bound AS (
           UPDATE idempotency_keys SET reference = $1, lease_until = $16
           WHERE client_scope = $3 AND idempotency_key = $2 AND claim_token = $13 AND state = 'in_flight' AND lease_until > $14
           RETURNING 1)
         INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode, keyword,
           amount, fee_amount, recurring_frequency, peer_fundraiser_id, peer_fundraiser_team_id, utm, form_session, state, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $17, $18, 'sending', $15, $15 WHERE EXISTS (SELECT 1 FROM bound)`,
        [
          attempt.reference,
          attempt.idempotency_key,
          attempt.client_scope,
          attempt.client_ip,
          attempt.fingerprint,
          attempt.shortcode,
          attempt.keyword,
          attempt.amount,
          attempt.fee_amount,
          attempt.recurring_frequency,
          attempt.peer_fundraiser_id,
          attempt.peer_fundraiser_team_id,
          claim.token,
          at,
          created,
          at + leaseMs,
          attempt.utm,
          attempt.form_session ?? null,
        ],
        pool,
        "givekit-start-attempt",
      );
      if (result.rowCount !== 1) throw new ClaimLostError();
    },

    async finishAttempt(reference, outcome, events = []) {
      const at = now();
      // The outbox rows only if this statement recorded the outcome (`attempt` has its row).
      const outbox = events.length > 0 ? outboxInsert(events, 10, "EXISTS (SELECT 1 FROM attempt)") : null;
      // A late answer's events replace those held while the gift was Pending.
      const replaceHeld = `dropped AS (
           DELETE FROM webhook_outbox WHERE order_key = $1 AND state = 'held' AND EXISTS (SELECT 1 FROM attempt))`;
      // A late answer (after the lease ran out and the attempt became unknown) is still the truth.
      await query(
        `WITH attempt AS (
           UPDATE donation_attempts SET state = $2, upstream_status = $3, transaction_id = $4, message = $5,
             problem_code = $6, problem_field = $7, updated_at = $8
           WHERE reference = $1 AND state IN ('sending', 'unknown') RETURNING 1)
         ${outbox ? `, ${replaceHeld}, outbox AS (${outbox.sql})` : ""}
         UPDATE idempotency_keys SET state = 'done', completed_at = $9, claim_token = NULL, lease_until = NULL
         WHERE reference = $1`,
        [
          reference,
          outcome.state,
          outcome.upstream_status,
          outcome.transaction_id,
          outcome.message,
          outcome.problem_code,
          outcome.problem_field,
          new Date(at).toISOString(),
          at,
          ...(outbox?.values ?? []),
        ],
        // With webhook events, durably: an event lost with its outcome (a dedication) could not
        // be rebuilt by the reconciler, which settles the attempt from the report alone.
        outbox ? pool : lazy,
        outbox ? "givekit-finish-attempt-events" : "givekit-finish-attempt",
      );
    },

    async abandonAttempt(claim, reference) {
      await query(
        `WITH attempt AS (
           UPDATE donation_attempts SET state = 'not_sent', updated_at = $5 WHERE reference = $4 AND state = 'sending' RETURNING 1)
         DELETE FROM idempotency_keys WHERE client_scope = $1 AND idempotency_key = $2 AND claim_token = $3`,
        [claim.scope, claim.key, claim.token, reference, new Date(now()).toISOString()],
      );
    },

    async attempt(reference) {
      const { rows } = await query<AttemptRecord>(
        `SELECT ${ATTEMPT_COLUMNS} FROM donation_attempts WHERE reference = $1`,
        [reference],
      );
      return rows[0];
    },

    async attempts() {
      const { rows } = await query<AttemptRecord>(
        `SELECT ${ATTEMPT_COLUMNS} FROM donation_attempts ORDER BY created_at, seq`,
      );
      return rows;
    },

    async listAttempts(filter) {
      // With a state, `state = $2` alone lets PostgreSQL search donation_attempts_state_created_seq.
      const { rows } = await query<AttemptRecord>(
        filter.state === undefined
          ? `SELECT ${ATTEMPT_COLUMNS} FROM donation_attempts WHERE ($1::text IS NULL OR created_at >= $1)
             ORDER BY created_at, seq`
          : `SELECT ${ATTEMPT_COLUMNS} FROM donation_attempts WHERE state = $2 AND ($1::text IS NULL OR created_at >= $1)
             ORDER BY created_at, seq`,
        filter.state === undefined ? [filter.since ?? null] : [filter.since ?? null, filter.state],
      );
      return rows;
    },
  };
}

export function pgReconciliation({ query, transaction, now }: PgContext): ReconcileStore {
  return {
    async leaseReconcile(reference, owner, ms) {
      const at = now();
      const result = await query(
        `INSERT INTO reconcile_leases (reference, owner, lease_until) VALUES ($1, $2, $3)
         ON CONFLICT (reference) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
         WHERE reconcile_leases.lease_until <= $4 OR reconcile_leases.owner = excluded.owner`,
        [reference, owner, at + ms, at],
      );
      return result.rowCount === 1;
    },

    async releaseReconcile(owner) {
      await query("DELETE FROM reconcile_leases WHERE owner = $1", [owner]);
    },

    async resolveUnknown(reference, resolution, events = []) {
      const outbox = events.length > 0 ? outboxInsert(events, 1) : null;
      const at = now();
      // Its events held while it was Pending: due now when charged (and before its own, which
      // are added in a statement of their own, so their order holds), else dropped.
      const resolved = await transaction(async (client) => {
        const { rows } = await client.query<{ resolved: boolean }>(
          `WITH resolved AS (
             UPDATE donation_attempts SET state = $2, transaction_id = $3, note = NULL, updated_at = $4
             WHERE reference = $1 AND state = 'unknown' RETURNING 1),
           released AS (
             UPDATE webhook_outbox SET state = 'pending', next_at = $5,
               body = CASE WHEN event_type = 'donation.succeeded' AND $3::text IS NOT NULL
                 THEN jsonb_set(body::jsonb, '{data,transaction_id}', to_jsonb($3::text))::text ELSE body END
             WHERE order_key = $1 AND state = 'held' AND $6 AND EXISTS (SELECT 1 FROM resolved)),
           dropped AS (
             DELETE FROM webhook_outbox WHERE order_key = $1 AND state = 'held' AND NOT $6
               AND EXISTS (SELECT 1 FROM resolved))
           SELECT EXISTS (SELECT 1 FROM resolved) AS resolved`,
          [
            reference,
            resolution.state,
            resolution.transaction_id,
            new Date(at).toISOString(),
            at,
            resolution.state === "succeeded",
          ],
        );
        const done = rows[0]?.resolved === true;
        if (done && outbox) {
          await client.query(outbox.sql, outbox.values);
        }
        return done;
      });
      return resolved;
    },

    async claimedTransactions(transactionIds) {
      if (transactionIds.length === 0) return [];
      const { rows } = await query<{ transaction_id: string }>(
        `SELECT transaction_id FROM donation_attempts
         WHERE transaction_id = ANY($1::text[]) AND state = 'succeeded'`,
        [transactionIds],
      );
      return rows.map((row) => row.transaction_id);
    },

    async noteUnknown(reference, note) {
      await query(
        "UPDATE donation_attempts SET note = $2, updated_at = $3 WHERE reference = $1 AND state = 'unknown'",
        [reference, note, new Date(now()).toISOString()],
      );
    },
  };
}
