/**
 * A year of a busy nonprofit's succeeded attempts in a SQLite store, for the tests and the bench
 * that measure the proxy with such a store (test setup, not the proxy's way of writing: inserted
 * straight into a migrated store's table in one transaction; through the proxy it would take hours).
 */
import { join } from "node:path";
import { openSqliteStore } from "../../proxy/store/sqlite";
import { DB_FILE } from "../../proxy/store/sqlite/data-dir";
import { openSqlite } from "../../sqlite/open";

export function fillStore(dataDir: string, count: number): void {
  openSqliteStore({ dataDir, retentionH: 24, leaseMs: 20_000 })
    .close()
    .catch(() => undefined);
  const db = openSqlite(join(dataDir, DB_FILE));
  const insert = db.prepare(
    `INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode,
       keyword, amount, fee_amount, state, upstream_status, transaction_id, created_at, updated_at)
     VALUES (?, ?, 'origin:https://shelter.example', '203.0.113.5', 'fp', '71777', 'HOPE', '25.00', '0.00',
       'succeeded', 200, ?, ?, ?)`,
  );
  const yearAgo = Date.now() - 365 * 86_400_000;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const at = new Date(yearAgo + Math.floor((i * 365 * 86_400_000) / count)).toISOString();
      insert.run(`gk_year${String(i).padStart(16, "0")}`, `year-${i}`, `y${i}`, at, at);
    }
  })();
  db.close();
}
