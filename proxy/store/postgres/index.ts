/**
 * The PostgreSQL store (node-postgres), chosen by `DATABASE_URL`: any number of proxies share
 * it and act as one. Each write is a committed statement (or transaction) before its promise
 * resolves; claims are atomic through the primary key and row locks; a claim whose proxy died
 * is released when its lease runs out. One file per concern, as the SQLite store has:
 * idempotency-keys.ts, attempts.ts (and their reconciliation), consents.ts, defence.ts, counters.ts.
 */
import { Pool } from "pg";
import { withFallback } from "../counters";
import type { Store, StoreOptions } from "../types";
import { pgAttempts, pgReconciliation } from "./attempts";
import { pgContext } from "./connection";
import { pgConsents } from "./consents";
import { pgCounters } from "./counters";
import { pgDefence } from "./defence";
import { pgFormCounts } from "./form-counts";
import { openError } from "./errors";
import { pgIdempotencyKeys } from "./idempotency-keys";
import { pgListings } from "./listings";
import { pgOutbox } from "./outbox";
import { pgPeerLists } from "./peer-lists";
import { pgProgress } from "./progress";
import { pgSavedForms } from "./saved-forms";
import { migratePostgres } from "./schema";

export interface PostgresStoreOptions extends StoreOptions {
  url: string;
  /** Most connections this proxy opens. */
  poolMax: number;
  /** How long a request waits for a connection before the store counts as unreachable. */
  connectTimeoutMs: number;
  /** Where pool errors (a connection dropped while idle) are reported. */
  onError?: (error: Error) => void;
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

  const ctx = pgContext({ pool, lazy }, { now, leaseMs: options.leaseMs, retentionMs });
  // While the database is away, each proxy counts in its own memory (and still limits).
  const counters = withFallback(pgCounters(ctx));
  return {
    kind: "postgres",
    counters,
    sharedNotes: counters,
    ...pgIdempotencyKeys(ctx),
    ...pgAttempts(ctx),
    ...pgReconciliation(ctx),
    ...pgConsents(ctx),
    ...pgDefence(ctx),
    ...pgListings(ctx),
    ...pgPeerLists(ctx),
    ...pgProgress(ctx),
    ...pgOutbox(ctx),
    ...pgFormCounts(ctx),
    ...pgSavedForms(ctx),

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
