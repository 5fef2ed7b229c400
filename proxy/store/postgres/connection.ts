/**
 * What every PostgreSQL concern (idempotency-keys.ts, attempts.ts, consents.ts, defence.ts,
 * counters.ts) runs its statements through: the two pools, the clock and the store's settings.
 */
import type { Pool, PoolClient, QueryResultRow } from "pg";
import { storeError } from "./errors";

export interface PgContext {
  /** Commits durably (the WAL flushed before COMMIT returns): attempts and consent records. */
  pool: Pool;
  /** Does not wait for the flush: claims, releases, expiries, counters, outcomes (openPostgresStore says why). */
  lazy: Pool;
  now: () => number;
  leaseMs: number;
  retentionMs: number;
  /** A statement; `name`d ones (the hot path's) are parsed and planned once per connection. */
  query<R extends QueryResultRow>(
    text: string,
    values?: unknown[],
    on?: Pool,
    name?: string,
  ): Promise<{ rows: R[]; rowCount: number | null }>;
  /** Statements in one transaction; a broken connection is dropped, not handed on. */
  transaction<T>(run: (client: PoolClient) => Promise<T>, on?: Pool): Promise<T>;
}

export function pgContext(
  pools: { pool: Pool; lazy: Pool },
  settings: { now: () => number; leaseMs: number; retentionMs: number },
): PgContext {
  const { pool } = pools;
  return {
    ...pools,
    ...settings,
    async query<R extends QueryResultRow>(
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
    },
    async transaction<T>(run: (client: PoolClient) => Promise<T>, on: Pool = pool): Promise<T> {
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
    },
  };
}
