/**
 * The SQLite store's webhook outbox (proxy/webhooks): rows are added inside the caller's
 * transaction (the one that records the attempt's outcome), then claimed under a lease by one
 * delivering proxy at a time, earliest due first and in order per donation and endpoint: a row is
 * not claimed while an earlier one of the same donation for the same endpoint is still pending.
 * A lease that runs out (its proxy was killed mid-delivery) makes the row claimable again, so an
 * event is delivered at least once and never lost.
 */
import type Database from "better-sqlite3";
import type { OutboxEvent, OutboxFilter, OutboxRow, OutboxStats } from "../types";

export type OutboxInsert = OutboxEvent;
export type { OutboxRow };

const ROW_COLUMNS = `seq, event_id, event_type, endpoint, order_key, body, created_at, state, attempts, next_at,
  last_error, last_status, done_at`;

export function sqliteOutbox(db: Database.Database) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO webhook_outbox (event_id, event_type, endpoint, order_key, body, created_at, next_at, state)
     VALUES (@eventId, @eventType, @endpoint, @orderKey, @body, @createdAt, @createdAt, @state)`,
  );
  const releaseHeld = db.prepare(
    `UPDATE webhook_outbox SET state = 'pending', next_at = @now,
       body = CASE WHEN event_type = 'donation.succeeded' AND @tx IS NOT NULL
         THEN json_set(body, '$.data.transaction_id', @tx) ELSE body END
     WHERE order_key = @reference AND state = 'held'`,
  );
  const dropHeld = db.prepare<[string]>("DELETE FROM webhook_outbox WHERE order_key = ? AND state = 'held'");
  const claim = db.prepare<[Record<string, unknown>], OutboxRow>(
    `UPDATE webhook_outbox SET lease_owner = @owner, lease_until = @until, attempts = attempts + 1
     WHERE seq IN (
       SELECT o.seq FROM webhook_outbox o
       WHERE o.state = 'pending' AND o.next_at <= @now AND o.lease_until <= @now
         AND NOT EXISTS (
           SELECT 1 FROM webhook_outbox e
           WHERE e.endpoint = o.endpoint AND e.order_key = o.order_key AND e.state = 'pending' AND e.seq < o.seq)
       -- Earliest due first, as the due index walks (a new row is due when made: oldest first);
       -- ordering by seq alone sorted every due row at each poll (about 90 ms at 100,000 waiting).
       ORDER BY o.next_at, o.seq LIMIT @limit)
     RETURNING seq, event_id, event_type, endpoint, order_key, body, created_at, state, attempts, next_at,
       last_error, last_status, done_at`,
  );
  const delivered = db.prepare(
    `UPDATE webhook_outbox SET state = 'delivered', done_at = @now, last_status = @status, last_error = NULL,
       lease_owner = NULL, lease_until = 0
     WHERE seq = @seq AND lease_owner = @owner`,
  );
  const failed = db.prepare(
    `UPDATE webhook_outbox SET state = @state, next_at = @nextAt, last_status = @status, last_error = @error,
       done_at = CASE WHEN @state = 'dead' THEN @now ELSE NULL END, lease_owner = NULL, lease_until = 0
     WHERE seq = @seq AND lease_owner = @owner`,
  );
  const oldest = db.prepare<[], { created_at: number | null }>(
    "SELECT MIN(created_at) AS created_at FROM webhook_outbox WHERE state = 'pending'",
  );
  const counts = db.prepare<[], { state: string; n: number }>(
    "SELECT state, COUNT(*) AS n FROM webhook_outbox GROUP BY state",
  );
  const failing = db.prepare<[{ recent: number }], { endpoint: string; since: number; dead: number }>(
    `SELECT endpoint, MIN(created_at) AS since, SUM(state = 'dead') AS dead FROM webhook_outbox
     WHERE (state = 'pending' AND last_error IS NOT NULL) OR (state = 'dead' AND done_at >= @recent)
     GROUP BY endpoint ORDER BY endpoint`,
  );
  const page = db.prepare<[Record<string, unknown>], OutboxRow>(
    `SELECT ${ROW_COLUMNS} FROM webhook_outbox
     WHERE seq > @after AND (@since IS NULL OR created_at >= @since) AND (@endpoint IS NULL OR endpoint = @endpoint)
       AND (@state IS NULL OR state = @state)
     ORDER BY seq LIMIT @limit`,
  );
  const requeue = db.prepare(
    `UPDATE webhook_outbox SET state = 'pending', next_at = @now, done_at = NULL, attempts = 0
     WHERE state IN (SELECT value FROM json_each(@states)) AND (@since IS NULL OR created_at >= @since)
       AND (@endpoint IS NULL OR endpoint = @endpoint)`,
  );
  const due = db.prepare<[{ now: number }], { due: number }>(
    `SELECT 1 AS due FROM webhook_outbox WHERE state = 'pending' AND next_at <= @now AND lease_until <= @now LIMIT 1`,
  );
  const releaseAll = db.prepare(
    "UPDATE webhook_outbox SET lease_owner = NULL, lease_until = 0 WHERE state = 'pending' AND lease_until > 0",
  );
  return {
    /** Adds rows; call inside the transaction that records what they tell of. */
    add(rows: readonly OutboxInsert[]): void {
      for (const { held, ...row } of rows) insert.run({ ...row, state: held ? "held" : "pending" });
    },
    /**
     * A gift answered Pending is settled: its held events are due now (charged; with the
     * transaction id) or dropped (not charged). Call in the resolution's transaction, before
     * adding its own events, so they follow.
     */
    settleHeld(reference: string, transactionId: string | null, charged: boolean, now: number): void {
      if (charged) releaseHeld.run({ reference, tx: transactionId, now });
      else dropHeld.run(reference);
    },
    /** A late answer's own events replace the held ones. */
    dropHeld(reference: string): void {
      dropHeld.run(reference);
    },
    /** Whether a claim now would find a row (a read: the poll opens no write when nothing is due). */
    anyDue(now: number): boolean {
      return due.get({ now }) !== undefined;
    },
    claim(owner: string, leaseMs: number, limit: number, now: number): OutboxRow[] {
      return claim.all({ owner, until: now + leaseMs, limit, now });
    },
    /** False when the lease was lost (another proxy took the row over). */
    delivered(seq: number, owner: string, status: number, now: number): boolean {
      return delivered.run({ seq, owner, status, now }).changes === 1;
    },
    failed(
      seq: number,
      owner: string,
      failure: { status: number | null; error: string; nextAt: number; giveUp: boolean },
      now: number,
    ): boolean {
      const state = failure.giveUp ? "dead" : "pending";
      return (
        failed.run({
          seq,
          owner,
          state,
          nextAt: failure.nextAt,
          status: failure.status,
          error: failure.error,
          now,
        }).changes === 1
      );
    },
    oldestPendingAt(): number | null {
      return oldest.get()?.created_at ?? null;
    },
    /** Failing endpoints count given-up rows of the last `recentMs`. */
    stats(now: number, recentMs = 24 * 3600 * 1000): OutboxStats {
      const by = Object.fromEntries(counts.all().map((row) => [row.state, row.n]));
      return {
        pending: by.pending ?? 0,
        delivered: by.delivered ?? 0,
        dead: by.dead ?? 0,
        oldestPendingAt: oldest.get()?.created_at ?? null,
        failing: failing.all({ recent: now - recentMs }),
      };
    },
    page(filter: OutboxFilter, after: number | null, limit: number): OutboxRow[] {
      return page.all({
        after: after ?? 0,
        since: filter.since ?? null,
        endpoint: filter.endpoint ?? null,
        state: filter.state ?? null,
        limit,
      });
    },
    requeue(filter: OutboxFilter, mode: "retry" | "replay", now: number): number {
      const states = mode === "retry" ? ["dead", "pending"] : ["dead", "pending", "delivered"];
      return requeue.run({
        now,
        states: JSON.stringify(filter.state ? states.filter((s) => s === filter.state) : states),
        since: filter.since ?? null,
        endpoint: filter.endpoint ?? null,
      }).changes;
    },
    /** At open, under the data directory's lock: leases a previous run held are void. */
    releaseAll(): number {
      return releaseAll.run().changes;
    },
  };
}
export type SqliteOutbox = ReturnType<typeof sqliteOutbox>;
