/** The PostgreSQL store's shared counters and token buckets, on the lazy pool: a database crash may lose a count, never a charge. */
import { bucketTurn, mergeHits, statesInOrder } from "../counters";
import type { CounterState, Counters } from "../types";
import type { PgContext } from "./connection";
import { COUNTERS_TABLE, NOTES_TABLE } from "./schema";

/**
 * Every hit in one statement. A counter whose time is over ($4: now) starts again. Rows are
 * locked in the order given (mergeHits sorts them), so two of these never wait on each other.
 */
const ADD_COUNTERS = `INSERT INTO ${COUNTERS_TABLE} AS c (key, points, expire)
  SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[])
  ON CONFLICT (key) DO UPDATE SET
    points = CASE WHEN c.expire <= $4 THEN excluded.points ELSE c.points + excluded.points END,
    expire = CASE WHEN c.expire <= $4 THEN excluded.expire ELSE c.expire END
  RETURNING key, points, expire::float8 AS expire`;
const SET_COUNTERS = `INSERT INTO ${COUNTERS_TABLE} AS c (key, points, expire)
  SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[])
  ON CONFLICT (key) DO UPDATE SET points = excluded.points, expire = excluded.expire`;

/**
 * A token bucket's turn (GCRA), its arrival time kept in `expire` ($2: now, $3: the interval,
 * $4: burst × interval): the row is taken only while the turn is there. `prior` is read from the
 * statement's snapshot, for the Retry-After of a refused turn.
 */
const TAKE_BUCKET = `WITH prior AS (SELECT expire FROM ${COUNTERS_TABLE} WHERE key = $1),
  taken AS (
    INSERT INTO ${COUNTERS_TABLE} AS c (key, points, expire) VALUES ($1, 0, $2::bigint + $3::bigint)
    ON CONFLICT (key) DO UPDATE SET expire = GREATEST(c.expire, $2::bigint) + $3::bigint
    WHERE GREATEST(c.expire, $2::bigint) + $3::bigint - $2::bigint <= $4::bigint
    RETURNING expire)
  SELECT (SELECT expire::float8 FROM taken) AS taken, (SELECT expire::float8 FROM prior) AS prior`;

const REMEMBER = `INSERT INTO ${NOTES_TABLE} (key, value, expire) VALUES ($1, $2, $3)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, expire = excluded.expire`;
const RECALL = `SELECT value FROM ${NOTES_TABLE} WHERE key = $1 AND expire > $2`;
const NOTES_UNDER = `SELECT key, value, expire::float8 AS expire FROM ${NOTES_TABLE}
  WHERE starts_with(key, $1) AND expire > $2 ORDER BY key`;

export function pgCounters({ query, lazy, now }: PgContext): Counters {
  return {
    async add(hits) {
      if (hits.length === 0) return [];
      const at = now();
      const merged = mergeHits(hits);
      const { rows } = await query<{ key: string; points: number; expire: number }>(
        ADD_COUNTERS,
        [
          merged.map((hit) => hit.key),
          merged.map((hit) => hit.points),
          merged.map((hit) => at + hit.ttlMs),
          at,
        ],
        lazy,
        "givekit-counters-add",
      );
      const states = new Map<string, CounterState>(
        rows.map((row) => [row.key, { points: row.points, resetAt: row.expire }]),
      );
      return statesInOrder(hits, states);
    },
    async set(hits) {
      const at = now();
      const merged = mergeHits(hits);
      await query(
        SET_COUNTERS,
        [merged.map((hit) => hit.key), merged.map((hit) => hit.points), merged.map((hit) => at + hit.ttlMs)],
        lazy,
        "givekit-counters-set",
      );
    },
    async take(bucket) {
      const at = now();
      const { rows } = await query<{ taken: number | null; prior: number | null }>(
        TAKE_BUCKET,
        [bucket.key, at, bucket.intervalMs, bucket.burst * bucket.intervalMs],
        lazy,
        "givekit-bucket-take",
      );
      const { taken, prior } = rows[0]!;
      if (taken !== null) return { allowed: true, retryAt: at };
      // Refused. `prior` is from the statement's snapshot: a row another proxy made meanwhile is not in it.
      const retryAt = prior === null ? at + bucket.intervalMs : bucketTurn(prior, bucket, at).state.retryAt;
      return { allowed: false, retryAt: Math.max(retryAt, at + 1) };
    },
    async remember(key, value, ttlMs) {
      await query(REMEMBER, [key, value, now() + ttlMs], lazy, "givekit-notes-remember");
    },
    async recall(key) {
      const { rows } = await query<{ value: string }>(RECALL, [key, now()], lazy, "givekit-notes-recall");
      return rows[0]?.value ?? null;
    },
    async notesUnder(prefix) {
      const { rows } = await query<{ key: string; value: string; expire: number }>(
        NOTES_UNDER,
        [prefix, now()],
        lazy,
        "givekit-notes-under",
      );
      return rows;
    },
  };
}
