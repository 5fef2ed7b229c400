// The giving panel's counts of the proxy's own attempts, summed by the store (GivingCountStore,
// on SQLite and PostgreSQL): the gifts and amount per hour of the period, the average, the
// monthly and fee-covering shares, declines apart, one campaign or all; and the attempts
// waiting for the reconciler, counted rather than listed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { giving, HOUR_MS } from "../../../proxy/dashboard/figures";
import { openPostgresStore } from "../../../proxy/store/postgres";
import { openSqliteStore } from "../../../proxy/store/sqlite";
import { DB_FILE } from "../../../proxy/store/sqlite/data-dir";
import type { Store } from "../../../proxy/store/types";
import { openSqlite } from "../../../sqlite/open";
import { sql, testDatabase } from "../../helpers/postgres";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Row {
  at: number;
  amount: string;
  keyword?: string;
  fee?: string;
  recurring?: string | null;
  state?: string;
}

const COLUMNS =
  "reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode, keyword, amount, fee_amount, recurring_frequency, state, created_at, updated_at";
const values = (row: Row, index: number) => {
  const at = new Date(row.at).toISOString();
  return [
    `gk_giving${index}`,
    `giving-${index}`,
    "origin:https://shelter.example",
    "203.0.113.5",
    "fp",
    "71777",
    row.keyword ?? "HOPE",
    row.amount,
    row.fee ?? "0.00",
    row.recurring ?? null,
    row.state ?? "succeeded",
    at,
    at,
  ];
};

const stores: { name: string; open: (rows: Row[]) => Promise<Store> }[] = [
  {
    name: "sqlite",
    async open(rows) {
      const dir = mkdtempSync(join(tmpdir(), "givekit-giving-"));
      dirs.push(dir);
      // Made (migrated) first; the rows written while no store holds the file, as the bench does.
      await openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 }).close();
      const db = openSqlite(join(dir, DB_FILE));
      const insert = db.prepare(`INSERT INTO donation_attempts (${COLUMNS}) VALUES (${"?, ".repeat(12)}?)`);
      rows.forEach((row, index) => insert.run(...values(row, index)));
      db.close();
      return openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
    },
  },
  {
    name: "postgres",
    async open(rows) {
      const url = await testDatabase();
      const store = await openPostgresStore({
        url,
        retentionH: 24,
        leaseMs: 20_000,
        poolMax: 2,
        connectTimeoutMs: 2000,
      });
      for (const [index, row] of rows.entries())
        await sql(
          url,
          `INSERT INTO donation_attempts (${COLUMNS}) VALUES (${values(row, index)
            .map((_, i) => `$${i + 1}`)
            .join(", ")})`,
          values(row, index),
        );
      return store;
    },
  },
];

const BASE = Date.parse("2026-11-20T10:00:00Z") / HOUR_MS;

describe.each(stores)("giving counted by the $name store", ({ open }) => {
  it("per hour of the period, the average, the monthly and fee-covering shares; declines apart; by campaign or all", async () => {
    const hours = { fromHour: BASE, toHour: BASE + 2 };
    const store = await open([
      { at: BASE * HOUR_MS + 5, amount: "25.75", fee: "0.75" },
      { at: BASE * HOUR_MS + 9, amount: "10.00", recurring: "monthly" },
      { at: (BASE + 2) * HOUR_MS, amount: "40.00", keyword: "hope" },
      // The last millisecond of the period is in it; the next hour and the one before are not.
      { at: (BASE + 3) * HOUR_MS - 1, amount: "0.01" },
      { at: (BASE + 2) * HOUR_MS, amount: "99.00", state: "declined" },
      { at: (BASE + 3) * HOUR_MS, amount: "50.00" },
      { at: BASE * HOUR_MS - 1, amount: "50.00" },
      { at: (BASE + 1) * HOUR_MS, amount: "50.00", keyword: "GALA" },
      { at: (BASE + 1) * HOUR_MS, amount: "70.00", state: "failed" },
      { at: (BASE + 1) * HOUR_MS, amount: "5.00", state: "unknown" },
      { at: BASE * HOUR_MS - 7 * 24 * HOUR_MS, amount: "5.00", state: "unknown" },
    ]);
    try {
      const counts = await store.givingCounts(hours);
      // Summed in the store: one row per campaign, hour, state and kind of gift, not per attempt.
      expect(counts.length).toBeLessThan(8);
      const hope = giving(counts, hours, "71777/HOPE", []);
      expect(hope).toMatchObject({ gifts: 4, cents: 7576, averageCents: 1894, declined: 1 });
      expect(hope.recurringShare).toBeCloseTo(1 / 4);
      expect(hope.feeCoveredShare).toBeCloseTo(1 / 4);
      expect(hope.perHour.map((h) => [h.hour, h.gifts, h.cents])).toEqual([
        [new Date(BASE * HOUR_MS).toISOString(), 2, 3575],
        [new Date((BASE + 1) * HOUR_MS).toISOString(), 0, 0],
        [new Date((BASE + 2) * HOUR_MS).toISOString(), 2, 4001],
      ]);
      const all = giving(counts, hours, undefined, []);
      expect(all).toMatchObject({ gifts: 5, cents: 12576, declined: 1 });
      expect(all.perHour[1]).toMatchObject({ gifts: 1, cents: 5000 });
      expect(await store.unknownAttempts()).toBe(2);
      // A period with nothing: zeros, every hour there.
      const empty = giving(
        await store.givingCounts({ fromHour: BASE + 10, toHour: BASE + 11 }),
        { fromHour: BASE + 10, toHour: BASE + 11 },
        undefined,
        [],
      );
      expect(empty).toMatchObject({ gifts: 0, cents: 0, averageCents: 0, recurringShare: 0, declined: 0 });
      expect(empty.perHour).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});
