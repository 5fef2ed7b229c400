/**
 * The PostgreSQL store's webhook outbox (proxy/webhooks): rows are added by the statement that
 * records what they tell of (outboxInsert, in attempts.ts and consents.ts), then claimed under a
 * lease by one proxy at a time (FOR UPDATE SKIP LOCKED), earliest due first and in order per
 * donation and endpoint. A lease that runs out (its proxy was killed mid-delivery) frees the row for
 * another proxy: every event is delivered at least once and never lost.
 */
import type { OutboxEvent, OutboxRow, WebhookOutboxStore } from "../types";
import type { PgContext } from "./connection";

const ROW_COLUMNS = `seq, event_id, event_type, endpoint, order_key, body, created_at, state, attempts, next_at,
  last_error, last_status, done_at`;

/**
 * A data-modifying CTE body adding `events` from parameters $first…$first+6 (seven arrays), only
 * when `when` (an SQL condition) holds; its values for the query's parameter list.
 */
export function outboxInsert(
  events: readonly OutboxEvent[],
  first: number,
  when = "TRUE",
): { sql: string; values: unknown[] } {
  const p = (n: number) => `$${first + n}`;
  return {
    sql: `INSERT INTO webhook_outbox (event_id, event_type, endpoint, order_key, body, created_at, next_at, state)
      SELECT e.event_id, e.event_type, e.endpoint, e.order_key, e.body, e.created_at, e.created_at, e.state
      FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::bigint[],
        ${p(6)}::text[])
        AS e(event_id, event_type, endpoint, order_key, body, created_at, state)
      WHERE ${when}
      ON CONFLICT (event_id, endpoint) DO NOTHING`,
    values: [
      events.map((e) => e.eventId),
      events.map((e) => e.eventType),
      events.map((e) => e.endpoint),
      events.map((e) => e.orderKey),
      events.map((e) => e.body),
      events.map((e) => e.createdAt),
      events.map((e) => (e.held ? "held" : "pending")),
    ],
  };
}

type PgOutboxRow = Omit<OutboxRow, "seq" | "created_at" | "next_at" | "done_at"> & {
  seq: string;
  created_at: string;
  next_at: string;
  done_at: string | null;
};

/** bigint columns arrive as strings. */
function toRow(row: PgOutboxRow): OutboxRow {
  return {
    ...row,
    seq: Number(row.seq),
    created_at: Number(row.created_at),
    next_at: Number(row.next_at),
    done_at: row.done_at === null ? null : Number(row.done_at),
  };
}

export function pgOutbox({ query, lazy, now }: PgContext): WebhookOutboxStore {
  return {
    // Claims and tries need no flush: one lost is one more delivery of the same event.
    async addWebhookEvents(events) {
      if (events.length === 0) return;
      const insert = outboxInsert(events, 1);
      await query(insert.sql, insert.values);
    },
    async claimWebhooks(owner, leaseMs, limit) {
      const at = now();
      // The rows are picked and locked once, in a materialized CTE, then leased: earliest due
      // first in the due index's own order (next_at alone: a tie-break on seq sorted every row
      // due at the same instant, 350 ms over a requeued backlog of 100,000; walking seq order
      // read every delivered row kept, 24 ms). Order per donation and endpoint is NOT EXISTS's.
      const { rows } = await query<PgOutboxRow>(
        `WITH picked AS MATERIALIZED (
           SELECT o.seq FROM webhook_outbox o
           WHERE o.state = 'pending' AND o.next_at <= $3 AND o.lease_until <= $3
             AND NOT EXISTS (
               SELECT 1 FROM webhook_outbox e
               WHERE e.endpoint = o.endpoint AND e.order_key = o.order_key AND e.state = 'pending' AND e.seq < o.seq)
           ORDER BY o.next_at LIMIT $4
           FOR UPDATE OF o SKIP LOCKED)
         UPDATE webhook_outbox w SET lease_owner = $1, lease_until = $2, attempts = w.attempts + 1
         FROM picked WHERE w.seq = picked.seq
         RETURNING ${ROW_COLUMNS.replace(/(\w+)/g, "w.$1")}`,
        [owner, at + leaseMs, at, limit],
        lazy,
        "givekit-claim-webhooks",
      );
      return rows.map(toRow).toSorted((a, b) => a.seq - b.seq);
    },

    async webhookDelivered(seq, owner, status) {
      const result = await query(
        `UPDATE webhook_outbox SET state = 'delivered', done_at = $4, last_status = $3, last_error = NULL,
           lease_owner = NULL, lease_until = 0
         WHERE seq = $1 AND lease_owner = $2 AND state = 'pending'`,
        [seq, owner, status, now()],
        lazy,
      );
      return result.rowCount === 1;
    },

    async webhookFailed(seq, owner, failure) {
      const state = failure.giveUp ? "dead" : "pending";
      const result = await query(
        `UPDATE webhook_outbox SET state = $3, next_at = $4, last_status = $5, last_error = $6,
           done_at = CASE WHEN $3 = 'dead' THEN $7::bigint ELSE NULL END, lease_owner = NULL, lease_until = 0
         WHERE seq = $1 AND lease_owner = $2 AND state = 'pending'`,
        [seq, owner, state, failure.nextAt, failure.status, failure.error, now()],
        lazy,
      );
      return result.rowCount === 1;
    },

    async webhookStats() {
      const [counts, failing] = await Promise.all([
        query<{ state: string; n: string; oldest: string | null }>(
          `SELECT state, COUNT(*) AS n, MIN(created_at) AS oldest FROM webhook_outbox GROUP BY state`,
        ),
        query<{ endpoint: string; since: string; dead: string }>(
          `SELECT endpoint, MIN(created_at) AS since, COUNT(*) FILTER (WHERE state = 'dead') AS dead
           FROM webhook_outbox
           WHERE (state = 'pending' AND last_error IS NOT NULL) OR (state = 'dead' AND done_at >= $1)
           GROUP BY endpoint ORDER BY endpoint`,
          [now() - 24 * 3600 * 1000],
        ),
      ]);
      const by = Object.fromEntries(counts.rows.map((row) => [row.state, row]));
      return {
        pending: Number(by.pending?.n ?? 0),
        delivered: Number(by.delivered?.n ?? 0),
        dead: Number(by.dead?.n ?? 0),
        oldestPendingAt: by.pending?.oldest ? Number(by.pending.oldest) : null,
        failing: failing.rows.map((row) => ({
          endpoint: row.endpoint,
          since: Number(row.since),
          dead: Number(row.dead),
        })),
      };
    },

    async webhooksPage(filter, after, limit) {
      const { rows } = await query<PgOutboxRow>(
        `SELECT ${ROW_COLUMNS} FROM webhook_outbox
         WHERE seq > $1 AND ($2::bigint IS NULL OR created_at >= $2) AND ($3::text IS NULL OR endpoint = $3)
           AND ($4::text IS NULL OR state = $4)
         ORDER BY seq LIMIT $5`,
        [after ?? 0, filter.since ?? null, filter.endpoint ?? null, filter.state ?? null, limit],
      );
      return rows.map(toRow);
    },

    async requeueWebhooks(filter, mode) {
      const states = mode === "retry" ? ["dead", "pending"] : ["dead", "pending", "delivered"];
      const result = await query(
        `UPDATE webhook_outbox SET state = 'pending', next_at = $1, done_at = NULL, attempts = 0
         WHERE state = ANY($2::text[]) AND ($3::bigint IS NULL OR created_at >= $3) AND ($4::text IS NULL OR endpoint = $4)`,
        [
          now(),
          filter.state ? states.filter((s) => s === filter.state) : states,
          filter.since ?? null,
          filter.endpoint ?? null,
        ],
      );
      return result.rowCount ?? 0;
    },
  };
}
