/**
 * The SQLite database opened beside a running proxy, for the `givekit` command line: no data
 * directory lock (the proxy holds it), no migration (the proxy's own), read-only unless the
 * command writes. WAL lets it read while the proxy writes; its few writes (the reconciler's
 * leases and resolutions, a settled gift's funnel counts) are single conditional statements or
 * short transactions, which SQLite serializes.
 */
import { existsSync } from "node:fs";
import { openSqlite } from "../../../sqlite/open";
import { StoreOpenError } from "../errors";
import type { Store } from "../types";
import { sqliteAttempts } from "./attempts";
import { sqliteConsents } from "./consents";
import { dbFileIn } from "./data-dir";
import { sqliteDefence } from "./defence";
import { sqliteFormCounts } from "./form-counts";
import { sqliteListings } from "./listings";
import { sqliteNotes } from "./notes";
import { sqliteOutbox } from "./outbox";
import { SQLITE_SCHEMA_VERSION } from "./schema";

/** What the command line needs of a store. */
export type CliStore = Pick<
  Store,
  | "listAttempts"
  | "attempt"
  | "consents"
  | "leaseReconcile"
  | "releaseReconcile"
  | "resolveUnknown"
  | "noteUnknown"
  | "claimedTransactions"
  | "defenceStates"
  | "healthy"
  | "close"
  | "attemptsPage"
  | "consentsPage"
  | "webhookStats"
  | "webhooksPage"
  | "requeueWebhooks"
  | "dashboardGeneration"
  | "revokeDashboard"
  | "sharedNotes"
  | "addFormCounts"
>;

/**
 * Runs a write, waiting for the proxy's open transaction without blocking this thread (the
 * busy timeout would: a command run inside the proxy's own process would wait on itself). The
 * connection's busy timeout is off only while `run` itself runs (it is synchronous): the command's
 * other statements, run while this one waits its turn, keep theirs (`givekit reconcile` released
 * its leases "database is locked" while a settled gift's counts waited so).
 */
async function whenFree<T>(db: ReturnType<typeof openSqlite>, run: () => T, waitMs = 5000): Promise<T> {
  const until = Date.now() + waitMs;
  for (;;) {
    db.pragma("busy_timeout = 0");
    try {
      return run();
    } catch (error) {
      const busy = (error as { code?: string }).code === "SQLITE_BUSY";
      if (!busy || Date.now() > until) throw error;
    } finally {
      db.pragma("busy_timeout = 5000");
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * @example
 * const store = openSqliteBeside("./data", { readonly: true });
 * console.log((await store.listAttempts({ state: "unknown" })).length);
 */
export function openSqliteBeside(dataDir: string, options: { readonly: boolean }): CliStore {
  const path = dbFileIn(dataDir);
  if (!existsSync(path)) {
    throw new StoreOpenError("GIVEKIT_DATA_DIR", `no givekit database in ${dataDir} (start the proxy once)`);
  }
  const db = openSqlite(path, { readonly: options.readonly, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version !== SQLITE_SCHEMA_VERSION) {
    db.close();
    throw new StoreOpenError(
      "GIVEKIT_DATA_DIR",
      version < SQLITE_SCHEMA_VERSION
        ? `the store's schema is version ${version}, this givekit knows ${SQLITE_SCHEMA_VERSION}: run \`givekit migrate\` (with the proxy stopped), or start this version's proxy, which migrates as it starts`
        : `the store's schema is version ${version}, newer than this givekit knows (${SQLITE_SCHEMA_VERSION}): run the givekit version that made it`,
    );
  }
  const attempts = sqliteAttempts(db, { leaseMs: 0 });
  const consents = sqliteConsents(db);
  const defence = sqliteDefence(db);
  const listings = sqliteListings(db);
  const outbox = sqliteOutbox(db);
  const dashboard = sqliteFormCounts(db);
  const notes = sqliteNotes(db);
  return {
    sharedNotes: {
      async remember(key, value, ttlMs) {
        const now = Date.now();
        await whenFree(db, () => notes.remember(key, value, now + ttlMs, now));
      },
      async recall(key) {
        return notes.recall(key, Date.now());
      },
      async notesUnder(prefix) {
        return notes.notesUnder(prefix, Date.now());
      },
    },
    async addFormCounts(counts, channelCap) {
      // One writer at a time (an immediate transaction), so the channels' cap holds beside the proxy.
      if (counts.length > 0)
        await whenFree(db, () => db.transaction(() => dashboard.add(counts, channelCap)).immediate());
    },
    async dashboardGeneration() {
      return dashboard.generation();
    },
    async revokeDashboard() {
      return whenFree(db, () => dashboard.revoke());
    },
    async attemptsPage(filter, after, limit) {
      return listings.attemptsPage(filter, after, limit);
    },
    async consentsPage(since, after, limit) {
      return listings.consentsPage(since, after, limit);
    },
    async listAttempts(filter) {
      return attempts.list(filter);
    },
    async attempt(reference) {
      return attempts.get(reference);
    },
    async consents() {
      return consents.all();
    },
    async leaseReconcile(reference, owner, ms) {
      return whenFree(db, () => attempts.lease(reference, owner, ms, Date.now()));
    },
    async releaseReconcile(owner) {
      await whenFree(db, () => attempts.release(owner));
    },
    async resolveUnknown(reference, resolution, events = []) {
      return whenFree(db, () =>
        db.transaction(() => {
          const resolved = attempts.resolve(reference, resolution, Date.now());
          if (resolved) {
            const charged = resolution.state === "succeeded";
            outbox.settleHeld(reference, resolution.transaction_id, charged, Date.now());
            outbox.add(events);
          }
          return resolved;
        })(),
      );
    },
    async webhookStats() {
      return outbox.stats(Date.now());
    },
    async webhooksPage(filter, after, limit) {
      return outbox.page(filter, after, limit);
    },
    async requeueWebhooks(filter, mode) {
      return whenFree(db, () => outbox.requeue(filter, mode, Date.now()));
    },
    async noteUnknown(reference, note) {
      attempts.note(reference, note, Date.now());
    },
    async claimedTransactions(transactionIds) {
      return attempts.claimed(transactionIds);
    },
    async defenceStates(scopes) {
      return defence.states(scopes);
    },
    async healthy() {
      return db.open;
    },
    async close() {
      db.close();
    },
  };
}
