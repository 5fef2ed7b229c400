// The giving panel's counts of the proxy's own attempts, summed by the store (GivingCountStore,
// on SQLite and PostgreSQL): the gifts and amount per hour of the period, the average, the
// monthly and fee-covering shares, declines apart, one campaign or all; and the attempts
// waiting for the reconciler, counted rather than listed. A live tick reads only the days that
// may still change.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DashboardData } from "../../../contract/dashboard";
import { createCampaignDirectory } from "../../../proxy/campaign/directory";
import { loadConfig } from "../../../proxy/config";
import { giving, HOUR_MS } from "../../../proxy/dashboard/figures";
import { dashboardPages } from "../../../proxy/dashboard/pages";
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

/** An instant `hour` hours into the UTC day `daysAgo` days before 2026-11-20. */
const day = (daysAgo: number, hour: number) =>
  Date.parse("2026-11-20T00:00:00Z") - daysAgo * 86_400_000 + hour * HOUR_MS;

describe("a live tick's giving reads", () => {
  it("read today and the period's first, partial day; a past day is read again while an attempt in it is unknown, and shows it once settled", async () => {
    const at = Date.parse("2026-11-20T10:30:00Z");
    const store = await stores[0]!.open([
      { at: day(3, 9), amount: "30.00" },
      { at: day(2, 9), amount: "10.00" },
      { at: day(2, 11), amount: "20.00", state: "unknown" },
      { at: day(0, 8), amount: "5.00" },
    ]);
    try {
      const asked: { fromHour: number; toHour: number }[] = [];
      const pages = dashboardPages({
        store: Object.assign(Object.create(store) as Store, {
          givingCounts(filter: { fromHour: number; toHour: number }) {
            asked.push(filter);
            return store.givingCounts(filter);
          },
        }),
        campaigns: createCampaignDirectory(
          loadConfig({
            UPSTREAM_BASE_URL: "http://127.0.0.1:9",
            UPSTREAM_PRIVATE_TOKEN: "p",
            UPSTREAM_PUBLIC_TOKEN: "q",
          }).campaigns,
        ),
        feed: { live: () => Promise.reject(new Error("no feed here")) },
        widgetDir: "/nowhere",
        liveS: 5,
        draining: () => false,
        now: () => at,
      });
      const tick = async () => {
        asked.length = 0;
        const data = (await (await pages.request("/data.json?period=7d")).json()) as DashboardData;
        return {
          gifts: data.giving.gifts,
          cents: data.giving.cents,
          days: asked.map((a) => new Date(a.fromHour * HOUR_MS).toISOString()),
        };
      };
      // The first: every day of the period (7 × 24 hours back from this one: 8 days, the first partial).
      const first = await tick();
      expect(first).toMatchObject({ gifts: 3, cents: 4500 });
      expect(first.days).toHaveLength(8);
      // Then: the first day (partial), the day with the unknown attempt, and today; no other.
      const second = await tick();
      expect(second).toEqual({
        gifts: 3,
        cents: 4500,
        days: [first.days[0], new Date(day(2, 0)).toISOString(), new Date(day(0, 0)).toISOString()],
      });
      // The reconciler settles it: the next tick counts it, and that day is read no more.
      expect(await store.resolveUnknown("gk_giving2", { state: "succeeded", transaction_id: "77" })).toBe(
        true,
      );
      expect(await tick()).toMatchObject({ gifts: 4, cents: 6500 });
      expect((await tick()).days).toEqual([first.days[0], new Date(day(0, 0)).toISOString()]);
    } finally {
      await store.close();
    }
  });
});
