/**
 * The PostgreSQL store (node-postgres), chosen by `DATABASE_URL`: any number of proxies share
 * it and act as one. Each write is a committed statement (or transaction) before its promise
 * resolves; claims are atomic through the primary key and row locks; a claim whose proxy died
 * is released when its lease runs out.
 */
import { Pool, type ClientBase, type PoolClient, type QueryResultRow } from "pg";
import { decideClaim, newClaimToken, type KeyRow } from "../claims";
import { bucketTurn, mergeHits, statesInOrder, withFallback } from "../counters";
import {
  ClaimLostError,
  type AttemptRecord,
  type CounterState,
  type Counters,
  type Claim,
  type ClaimResult,
  type ConsentRecord,
  type Store,
  type StoreOptions,
} from "../types";
import { CROSS_DEFENCE_SQL, END_DEFENCES_SQL, toDefenceState } from "../defence";
import { openError, storeError } from "./errors";
import { COUNTERS_TABLE, migratePostgres } from "./schema";

export interface PostgresStoreOptions extends StoreOptions {
  url: string;
  /** Most connections this proxy opens. */
  poolMax: number;
  /** How long a request waits for a connection before the store counts as unreachable. */
  connectTimeoutMs: number;
  /** Where pool errors (a connection dropped while idle) are reported. */
  onError?: (error: Error) => void;
}

/** The advisory lock key of the retention purge: one proxy purges at a time. */
const PURGE_LOCK = "7365700";

const ATTEMPT_COLUMNS = `reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode, keyword, amount,
  fee_amount, recurring_frequency, peer_fundraiser_id, peer_fundraiser_team_id, state, upstream_status, transaction_id,
  message, problem_code, problem_field, note, created_at, updated_at`;

const KEY_ROW = `SELECT k.fingerprint, k.state, k.reference, k.created_at::float8 AS created_at,
  k.lease_until::float8 AS lease_until, a.state AS attempt_state
  FROM idempotency_keys k LEFT JOIN donation_attempts a ON a.reference = k.reference
  WHERE k.client_scope = $1 AND k.idempotency_key = $2 FOR UPDATE OF k`;

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

const pg = (n: number) => `$${n}`;
const DEFENCE_SELECT = "SELECT scope, signal, value, since_ms, until_ms, ended FROM defence_modes";
interface DefenceRow {
  scope: string;
  signal: string;
  value: number;
  since_ms: string;
  until_ms: string;
  ended: number;
}

async function selectAttempt(client: ClientBase, reference: string): Promise<AttemptRecord> {
  const { rows } = await client.query<AttemptRecord>(
    `SELECT ${ATTEMPT_COLUMNS} FROM donation_attempts WHERE reference = $1`,
    [reference],
  );
  return rows[0]!;
}

/**
 * Connects, migrates (under an advisory lock) and returns the store; a database it cannot use
 * throws StoreOpenError naming DATABASE_URL and the cause, never the password.
 *
 * @example
 * const store = await openPostgresStore({ url: process.env.DATABASE_URL!, retentionH: 24, leaseMs: 23_000, poolMax: 10, connectTimeoutMs: 2000 });
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const now = options.now ?? Date.now;
  const retentionMs = options.retentionH * 3600 * 1000;
  const poolOptions = {
    connectionString: options.url,
    max: options.poolMax,
    connectionTimeoutMillis: options.connectTimeoutMs,
    // A statement that hangs (the server gone without a word) must not hold a donation forever.
    query_timeout: 10_000,
    application_name: "givekit-proxy",
  };
  // Two pools. `pool` commits durably (the WAL flushed before COMMIT returns): attempts and
  // consent records. `lazy` does not wait for the flush (synchronous_commit=off): claims,
  // releases, lease expiries, counters and outcomes, all of which a database crash may lose
  // without harm, since nothing is sent upstream before a durable attempt (whose flush carries
  // every earlier commit with it), and an attempt whose outcome was lost stays `sending`, which
  // its lease turns `unknown` and the reconciler settles from the upstream's report: never sent
  // again. One disk wait per donation, the attempt's, where there would be four.
  const pool = new Pool(poolOptions);
  const lazy = new Pool({ ...poolOptions, options: "-c synchronous_commit=off" });
  // An idle connection that breaks must not crash the process: the next query reconnects.
  for (const each of [pool, lazy]) each.on("error", (error) => options.onError?.(error));

  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client);
    } finally {
      client.release();
    }
  } catch (error) {
    await Promise.all([pool.end(), lazy.end()]).catch(() => undefined);
    if (error instanceof Error && error.name === "SchemaTooNewError") throw error;
    throw openError(error, options.url);
  }

  /** A statement; `name`d ones (the hot path's) are parsed and planned once per connection. */
  async function query<R extends QueryResultRow>(
    text: string,
    values: unknown[] = [],
    on: Pool = pool,
    name?: string,
  ) {
    try {
      return await on.query<R>({ name, text, values });
    } catch (error) {
      throw storeError(error);
    }
  }

  /** The shared counters, on the lazy pool: a database crash may lose a count, never a charge. */
  const sharedCounters: Counters = {
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
  };

  async function transaction<T>(run: (client: PoolClient) => Promise<T>, on: Pool = pool): Promise<T> {
    let client: PoolClient;
    try {
      client = await on.connect();
    } catch (error) {
      throw storeError(error);
    }
    try {
      await client.query("BEGIN");
      const result = await run(client);
      await client.query("COMMIT");
      client.release();
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      // A broken connection is dropped, not handed to the next request.
      client.release(error instanceof Error ? error : true);
      throw storeError(error);
    }
  }

  /** The slow path of a claim: the key has a record; decide under its row lock. */
  function claimExisting(
    request: Parameters<Store["claimKey"]>[0],
    claim: Claim,
  ): Promise<ClaimResult | null> {
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
              at + options.leaseMs,
              at,
            ],
          );
          return { kind: "started", claim };
        case "take_over":
          await client.query(
            "UPDATE idempotency_keys SET claim_token = $3, lease_until = $4 WHERE client_scope = $1 AND idempotency_key = $2",
            [request.scope, request.key, claim.token, at + options.leaseMs],
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
    kind: "postgres",
    // While the database is away, each proxy counts in its own memory (and still limits).
    counters: withFallback(sharedCounters),

    async claimKey(request) {
      for (let round = 0; ; round++) {
        const claim: Claim = { scope: request.scope, key: request.key, token: newClaimToken() };
        const at = now();
        // The common case, a new key, in one statement: the primary key makes it atomic.
        const inserted = await query(
          `INSERT INTO idempotency_keys (client_scope, idempotency_key, endpoint, fingerprint, state, claim_token, created_at, lease_until)
           VALUES ($1, $2, $3, $4, 'in_flight', $5, $6, $7) ON CONFLICT DO NOTHING`,
          [
            request.scope,
            request.key,
            request.endpoint,
            request.fingerprint,
            claim.token,
            at,
            at + options.leaseMs,
          ],
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
           amount, fee_amount, recurring_frequency, peer_fundraiser_id, peer_fundraiser_team_id, state, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'sending', $15, $15 WHERE EXISTS (SELECT 1 FROM bound)`,
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
          at + options.leaseMs,
        ],
        pool,
        "givekit-start-attempt",
      );
      if (result.rowCount !== 1) throw new ClaimLostError();
    },

    async finishAttempt(reference, outcome) {
      const at = now();
      // A late answer (after the lease ran out and the attempt became unknown) is still the truth.
      await query(
        `WITH attempt AS (
           UPDATE donation_attempts SET state = $2, upstream_status = $3, transaction_id = $4, message = $5,
             problem_code = $6, problem_field = $7, updated_at = $8
           WHERE reference = $1 AND state IN ('sending', 'unknown') RETURNING 1)
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
        ],
        lazy,
        "givekit-finish-attempt",
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
      const { rows } = await query<AttemptRecord>(
        `SELECT ${ATTEMPT_COLUMNS} FROM donation_attempts
         WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR created_at >= $2)
         ORDER BY created_at, seq`,
        [filter.state ?? null, filter.since ?? null],
      );
      return rows;
    },

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

    async resolveUnknown(reference, resolution) {
      const result = await query(
        `UPDATE donation_attempts SET state = $2, transaction_id = $3, note = NULL, updated_at = $4
         WHERE reference = $1 AND state = 'unknown'`,
        [reference, resolution.state, resolution.transaction_id, new Date(now()).toISOString()],
      );
      return result.rowCount === 1;
    },

    async noteUnknown(reference, note) {
      await query(
        "UPDATE donation_attempts SET note = $2, updated_at = $3 WHERE reference = $1 AND state = 'unknown'",
        [reference, note, new Date(now()).toISOString()],
      );
    },

    async recordConsent(consent) {
      const { rows } = await query<{ id: string }>(
        // The text and the record in one statement: one round trip, one transaction.
        `WITH text AS (
           INSERT INTO consent_texts (sha256, text) VALUES ($5, $10) ON CONFLICT (sha256) DO NOTHING
         )
         INSERT INTO consent_records (mobilenumber, list, keyword, shortcode, consent_text_sha256, consented_at, ip, user_agent, page_url, outcome)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending') RETURNING id`,
        [
          consent.mobilenumber,
          consent.list,
          consent.keyword,
          consent.shortcode,
          consent.consent_text_sha256,
          new Date(now()).toISOString(),
          consent.ip,
          consent.user_agent,
          consent.page_url,
          consent.consent_text,
        ],
      );
      return Number(rows[0]!.id);
    },

    async finishConsent(id, outcome) {
      await query("UPDATE consent_records SET outcome = $1 WHERE id = $2", [outcome, id], lazy);
    },

    async consents() {
      const { rows } = await query<ConsentRecord & { id: string }>(
        `SELECT consent_records.*, consent_texts.text AS consent_text FROM consent_records
         LEFT JOIN consent_texts ON consent_texts.sha256 = consent_records.consent_text_sha256 ORDER BY id`,
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
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
        return purged.rowCount ?? 0;
      }, lazy);
    },

    // Defence mode rides the lazy pool: a database crash loses at most a period the next crossing restarts.
    async crossDefence(scope, signal, value, quietMs) {
      const nonce = newClaimToken();
      const at = now();
      const { rows } = await query<DefenceRow & { started_by: string }>(
        CROSS_DEFENCE_SQL("GREATEST", pg),
        [scope, signal, value, at, at + quietMs, nonce],
        lazy,
      );
      return { entered: rows[0]!.started_by === nonce, state: toDefenceState(rows[0]!) };
    },
    async defenceStates(scopes) {
      const { rows } = scopes
        ? await query<DefenceRow>(
            `${DEFENCE_SELECT} WHERE scope = ANY($1) ORDER BY scope`,
            [scopes],
            lazy,
            "givekit-defence-states",
          )
        : await query<DefenceRow>(`${DEFENCE_SELECT} ORDER BY scope`, [], lazy);
      return rows.map(toDefenceState);
    },
    async endDefences() {
      const { rows } = await query<DefenceRow>(END_DEFENCES_SQL(pg), [now()], lazy);
      return rows.map(toDefenceState);
    },

    async healthy() {
      try {
        await pool.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      await Promise.all([pool.end(), lazy.end()]);
    },
  };
}
