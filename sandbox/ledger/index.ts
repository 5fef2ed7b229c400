/**
 * The sandbox's ledger: its state in SQLite (better-sqlite3), the fixture's records plus
 * everything the API creates (sessions, payment tokens, transactions, subscriptions, reports),
 * a file per concern beside this one. Card numbers and CVVs are never stored: a payment token
 * keeps brand, last 4 and outcome. Not the proxy's store (proxy/store/), which journals what the
 * proxy did; this is the upstream's own record, the ground truth tests check money against.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { openSqlite } from "../../sqlite/open";
import type { Fixture } from "../fixture";
import { ledgerAccounts } from "./accounts";
import { ledgerBulk } from "./bulk";
import { ledgerCampaigns } from "./campaigns";
import { ledgerPaymentTokens } from "./payment-tokens";
import { ledgerPeers } from "./peers";
import { ledgerReports } from "./reports";
import { rebuild, SCHEMA_VERSION } from "./schema";
import { ledgerSubscriptions } from "./subscriptions";
import { ledgerTransactions } from "./transactions";

export * from "./types";
export { reportDate } from "./reports";

export type Ledger = ReturnType<typeof openLedger>;

/**
 * Opens (or creates) the database and loads the fixture. A file database that was built from
 * the same fixture keeps its state across restarts; one built from another fixture is rebuilt.
 *
 * @example
 * const ledger = openLedger(":memory:", loadFixtureFile("sandbox/fixtures/demo.json"));
 */
export function openLedger(path: string, fixture: Fixture, now: () => Date = () => new Date()) {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = openSqlite(path);
  db.pragma("journal_mode = WAL");

  const fingerprint = createHash("sha256")
    .update(SCHEMA_VERSION)
    .update(JSON.stringify(fixture))
    .digest("hex");
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  const current = hasMeta
    ? (db.prepare("SELECT value FROM meta WHERE key = 'fingerprint'").get() as { value: string } | undefined)
    : undefined;
  if (current?.value !== fingerprint) {
    // Foreign keys cannot be switched inside a transaction; rebuild drops every table.
    db.pragma("foreign_keys = OFF");
    rebuild(db, fixture, fingerprint, now().toISOString());
  }
  db.pragma("foreign_keys = ON");

  return {
    ...ledgerAccounts(db, now),
    ...ledgerCampaigns(db),
    ...ledgerPeers(db),
    ...ledgerPaymentTokens(db),
    ...ledgerTransactions(db),
    ...ledgerSubscriptions(db),
    ...ledgerReports(db),
    /** Sandbox-only: big accounts and a keyword's figures (bulk.ts). */
    ...ledgerBulk(db, now),
    close: () => db.close(),
  };
}
