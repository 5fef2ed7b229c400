/**
 * One tick of the staff dashboard at scale: a SQLite store holding BENCH_DASHBOARD_ATTEMPTS
 * (1,000,000 by default) donation attempts spread over the last 30 days (most succeeded, some
 * declined, some failed; some monthly, some covering the fee), and GET /dashboard/data.json for
 * the 30-day view and for today, as an open page's live tick asks for them. Prints each view's
 * first time (a page opened) and the median of the 5 ticks after it, the longest the event loop was held meanwhile (what a
 * donor's request beside it would wait) and the process's heap growth.
 *
 *   npx tsx bench/dashboard-tick.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { loadConfig } from "../proxy/config";
import { createCampaignDirectory } from "../proxy/campaign/directory";
import { dashboardPages } from "../proxy/dashboard/pages";
import { openSqliteStore } from "../proxy/store/sqlite";
import { DB_FILE } from "../proxy/store/sqlite/data-dir";
import { openSqlite } from "../sqlite/open";

const ATTEMPTS = Number(process.env.BENCH_DASHBOARD_ATTEMPTS ?? 1_000_000);
const DAY_MS = 86_400_000;
const RUNS = 5;

const dir = mkdtempSync(join(tmpdir(), "givekit-dashboard-tick-"));
const store = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
await store.close();
const db = openSqlite(join(dir, DB_FILE));
const insert = db.prepare(
  `INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode,
     keyword, amount, fee_amount, recurring_frequency, state, upstream_status, transaction_id, created_at, updated_at)
   VALUES (?, ?, 'origin:https://shelter.example', '203.0.113.5', 'fp', '71777', ?, ?, ?, ?, ?, 200, ?, ?, ?)`,
);
const now = Date.now();
const filling = performance.now();
db.transaction(() => {
  for (let i = 0; i < ATTEMPTS; i++) {
    const at = new Date(now - 30 * DAY_MS + Math.floor((i * 30 * DAY_MS) / ATTEMPTS)).toISOString();
    const state = i % 20 === 0 ? "declined" : i % 50 === 1 ? "failed" : "succeeded";
    insert.run(
      `gk_tick${String(i).padStart(16, "0")}`,
      `tick-${i}`,
      i % 3 === 0 ? "MEALS" : "HOPE",
      `${10 + (i % 90)}.${String(i % 100).padStart(2, "0")}`,
      i % 4 === 0 ? "0.75" : "0.00",
      i % 5 === 0 ? "monthly" : null,
      state,
      `t${i}`,
      at,
      at,
    );
  }
})();
db.close();
const filledS = (performance.now() - filling) / 1000;

const config = loadConfig({
  UPSTREAM_BASE_URL: "http://127.0.0.1:9",
  UPSTREAM_PRIVATE_TOKEN: "bench-private-token",
  UPSTREAM_PUBLIC_TOKEN: "bench-public-token",
});
const opened = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
// The room display's feed, answered at once: this bench times the store's side of a tick.
const feed = {
  async live() {
    throw new Error("no feed in this bench");
  },
};
const pages = dashboardPages({
  store: opened,
  campaigns: createCampaignDirectory(config.campaigns),
  widgetDir: config.widgetDir,
  liveS: 5,
  draining: () => false,
  feed,
  logger: pino({ level: "silent" }),
} as Parameters<typeof dashboardPages>[0]);

async function tick(period: string): Promise<number> {
  const started = performance.now();
  const answer = await pages.request(`/data.json?period=${period}`);
  if (answer.status !== 200) throw new Error(`data.json answered ${answer.status}: ${await answer.text()}`);
  await answer.json();
  return performance.now() - started;
}

const heapBefore = process.memoryUsage().heapUsed;
let heapPeak = heapBefore;
const lines: string[] = [];
for (const period of ["30d", "today"]) {
  let first = 0;
  const times: number[] = [];
  // The longest gap between two turns of a 5 ms timer: how long the event loop was held.
  let last = performance.now();
  let heldMs = 0;
  const probe = setInterval(() => {
    const at = performance.now();
    heldMs = Math.max(heldMs, at - last);
    last = at;
  }, 5);
  first = await tick(period);
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (let run = 0; run < RUNS; run++) {
    times.push(await tick(period));
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  clearInterval(probe);
  const median = times.toSorted((a, b) => a - b)[Math.floor(RUNS / 2)]!;
  lines.push(
    `  ${period}: first ${first.toFixed(0)} ms, then median ${median.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(", ")}); event loop held at most ${heldMs.toFixed(0)} ms`,
  );
}
await opened.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  `dashboard tick with ${ATTEMPTS.toLocaleString("en-US")} attempts over 30 days (filled in ${filledS.toFixed(1)} s):\n` +
    `${lines.join("\n")}\n` +
    `  heap grew by at most ${((heapPeak - heapBefore) / 1024 / 1024).toFixed(0)} MB\n`,
);
