// The dashboard's retention (GIVEKIT_DASHBOARD_KEEP_DAYS): the hourly purge deletes the form's
// step counts and the ops counts of hours older than the setting, in bounded batches, on SQLite
// and on PostgreSQL, and keeps every hour a 30-day view reads; a bad setting stops the program
// naming it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../proxy/config";
import { hoursOf } from "../../../proxy/dashboard/figures";
import { firstKeptHour, pruneDashboardCounts } from "../../../proxy/dashboard/retention";
import { startJobs } from "../../../proxy/jobs";
import { openPostgresStore } from "../../../proxy/store/postgres";
import { openSqliteStore } from "../../../proxy/store/sqlite";
import type { FormStepCount, OpsCount, Store } from "../../../proxy/store/types";
import type { UpstreamClient } from "../../../proxy/upstream/client";
import { testDatabase } from "../../helpers/postgres";

const REQUIRED = {
  UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
  UPSTREAM_PRIVATE_TOKEN: "private-token-for-retention-tests",
  UPSTREAM_PUBLIC_TOKEN: "public-token-for-retention-tests",
};
const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const stores: { name: string; open: () => Promise<Store> }[] = [
  {
    name: "sqlite",
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "givekit-retention-"));
      dirs.push(dir);
      return openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
    },
  },
  {
    name: "postgres",
    async open() {
      return openPostgresStore({
        url: await testDatabase(),
        retentionH: 24,
        leaseMs: 20_000,
        poolMax: 2,
        connectTimeoutMs: 2000,
      });
    },
  },
];

/** Each hour's counts: a few steps and channels, and a few ops kinds, as a busy hour has them. */
function hourOfCounts(hour: number): { steps: FormStepCount[]; ops: OpsCount[] } {
  const steps = ["shown", "amount", "details"].flatMap((step) =>
    ["direct", "newsletter"].map((channel) => ({
      campaign: "71777/HOPE",
      hour,
      step,
      reason: "reached",
      channel,
      device: "phone",
      count: 3,
    })),
  );
  const ops = ["challenge_asked", "declined"].map((kind) => ({
    campaign: "71777/HOPE",
    hour,
    kind,
    label: "",
    count: 2,
  }));
  return { steps, ops };
}

async function fill(store: Store, hours: readonly number[]): Promise<void> {
  for (const hour of hours) {
    const { steps, ops } = hourOfCounts(hour);
    await store.addFormCounts(steps, 20);
    await store.addOpsCounts(ops);
  }
}

const distinct = (rows: readonly { hour: number }[]) => [...new Set(rows.map((r) => r.hour))].toSorted();

/** The distinct hours each table still holds, of a wide range around now. */
async function hoursKept(store: Store, now: number): Promise<{ steps: number[]; ops: number[] }> {
  const range = { fromHour: Math.floor(now / HOUR_MS) - 400 * DAY_HOURS, toHour: Math.floor(now / HOUR_MS) };
  return {
    steps: distinct(await store.formCounts(range)),
    ops: distinct(await store.opsCounts(range)),
  };
}

describe("GIVEKIT_DASHBOARD_KEEP_DAYS", () => {
  it("keeps 45 days by default, longer than the 30-day view; a bad value stops the program naming it", () => {
    expect(loadConfig(REQUIRED).dashboard.keepDays).toBe(45);
    expect(loadConfig({ ...REQUIRED, GIVEKIT_DASHBOARD_KEEP_DAYS: "400" }).dashboard.keepDays).toBe(400);
    for (const bad of ["30", "0", "soon", "45.5", "99999"]) {
      let thrown: unknown;
      try {
        loadConfig({ ...REQUIRED, GIVEKIT_DASHBOARD_KEEP_DAYS: bad });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).variable).toBe("GIVEKIT_DASHBOARD_KEEP_DAYS");
    }
  });

  it("the smallest setting still keeps every hour of the 30-day view", () => {
    const now = Date.parse("2026-11-29T07:59:59Z");
    expect(firstKeptHour(31, now)).toBeLessThanOrEqual(hoursOf("30d", now).fromHour);
  });
});

describe.each(stores)("the dashboard's counts pruned on $name", ({ open }) => {
  it("deletes the hours older than the setting in batches, both tables, and keeps the rest", async () => {
    const store = await open();
    try {
      const now = Date.parse("2026-11-29T08:30:00Z");
      const current = Math.floor(now / HOUR_MS);
      const keepDays = 31;
      const first = firstKeptHour(keepDays, now);
      // Old hours (a year ago, just past the edge) and kept ones (the edge itself, 30 days ago, now).
      const old = [current - 365 * DAY_HOURS, first - 2, first - 1];
      const kept = [first, current - 30 * DAY_HOURS, current];
      await fill(store, [...old, ...kept]);
      expect((await hoursKept(store, now)).steps).toEqual([...old, ...kept]);

      // 6 step rows and 2 ops rows an hour: batches of 4 need several rounds.
      const batches: number[] = [];
      const counted = {
        async pruneDashboardCounts(beforeHour: number, limit: number) {
          const gone = await store.pruneDashboardCounts(beforeHour, limit);
          batches.push(gone);
          return gone;
        },
      };
      const pruned = await pruneDashboardCounts(counted, keepDays, now, { batch: 4 });
      expect(pruned).toBe(old.length * (6 + 2));
      expect(batches.length).toBeGreaterThan(2);
      for (const gone of batches) expect(gone).toBeLessThanOrEqual(4 + 4);
      expect(await hoursKept(store, now)).toEqual({ steps: kept, ops: kept });
      // The kept hours' counts are whole.
      const edge = await store.formCounts({ fromHour: first, toHour: first });
      expect(edge.reduce((sum, row) => sum + row.count, 0)).toBe(18);
      // Nothing more to do.
      expect(await pruneDashboardCounts(store, keepDays, now)).toBe(0);
      // A stop asked for ends it after the batch under way.
      await fill(store, old);
      const stop = new AbortController();
      stop.abort();
      expect(await pruneDashboardCounts(store, keepDays, now, { batch: 4, signal: stop.signal })).toBe(8);
    } finally {
      await store.close();
    }
  });

  it("the background jobs prune as they start, with the proxy's setting; a stop ends the pruning", async () => {
    const store = await open();
    try {
      const now = Date.now();
      const current = Math.floor(now / HOUR_MS);
      await fill(store, [current - 60 * DAY_HOURS, current - 40 * DAY_HOURS, current]);
      const jobs = await startJobs({
        store,
        upstream: {} as UpstreamClient,
        logger: pino({ level: "silent" }),
        reconcileIntervalS: 0,
        reconcileSettleS: 900,
        dashboardKeepDays: 45,
      });
      try {
        // In the background: the proxy does not wait for it to listen.
        await expect
          .poll(() => hoursKept(store, now))
          .toEqual({ steps: [current - 40 * DAY_HOURS, current], ops: [current - 40 * DAY_HOURS, current] });
      } finally {
        await jobs.stop();
      }
    } finally {
      await store.close();
    }
  });
});
