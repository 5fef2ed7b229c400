/**
 * The form step counts stay bounded: a million beacons' counts (each a count of 1, as
 * POST /v1/form-events adds them) over 24 hours of 3 campaigns, with 5,000 made-up channels
 * and every step and reason, added to a fresh SQLite store; it prints the rows kept, the bound
 * (campaign × hour × step × reason × channel × device, channels capped) and the file's size.
 * test/proxy/dashboard/million-beacons.test.ts asserts on the same flood.
 *
 *   npx tsx bench/form-counts.ts
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countedChannel, DEVICE_CLASSES, FORM_REASONS, FORM_STEPS } from "../contract/form-steps";
import { CONFIG_DEFAULTS } from "../proxy/config";
import { openSqliteStore } from "../proxy/store/sqlite";
import { DB_FILE } from "../proxy/store/sqlite/data-dir";
import type { FormStepCount } from "../proxy/store/types";

export const FLOOD = {
  beacons: 1_000_000,
  hours: 24,
  campaigns: ["71777/HOPE", "71777/GALA", "41444/MEALS"],
  channels: 5_000,
  /** Beacons handed to the store at a time. */
  batch: 10_000,
  cap: Number(CONFIG_DEFAULTS.GIVEKIT_DASHBOARD_CHANNELS),
} as const;

/** The most rows the counts may hold: campaign × hour × step × reason × (cap + direct + other) × device. */
export const FLOOD_BOUND =
  FLOOD.campaigns.length *
  FLOOD.hours *
  FORM_STEPS.length *
  FORM_REASONS.length *
  (FLOOD.cap + 2) *
  DEVICE_CLASSES.length;

/** Floods a fresh SQLite store in `dir` with FLOOD's beacons; the rows kept, the seconds taken and the file's bytes. */
export async function floodFormCounts(dir: string) {
  const store = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
  const firstHour = Math.floor(Date.now() / 3_600_000);
  let seed = 46;
  const pick = <T>(list: readonly T[]) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return list[(seed >>> 8) % list.length]!;
  };
  // Every tenth a made-up tag, markup included: counted as "other" past the cap, never echoed.
  const channels = Array.from({ length: FLOOD.channels }, (_, i) =>
    i % 10 === 0 ? `made up ${i} <script>` : `channel-${i}`,
  );
  const started = performance.now();
  for (let sent = 0; sent < FLOOD.beacons; sent += FLOOD.batch) {
    const batch: FormStepCount[] = [];
    for (let i = 0; i < FLOOD.batch; i++)
      batch.push({
        campaign: pick(FLOOD.campaigns),
        hour: firstHour + ((sent + i) % FLOOD.hours),
        step: pick(FORM_STEPS),
        reason: pick(FORM_REASONS),
        channel: countedChannel(pick(channels)),
        device: pick(DEVICE_CLASSES),
        count: 1,
      });
    await store.addFormCounts(batch, FLOOD.cap);
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = await store.formCounts({ fromHour: firstHour, toHour: firstHour + FLOOD.hours });
  await store.close();
  const bytes = [DB_FILE, `${DB_FILE}-wal`]
    .map((name) => {
      try {
        return statSync(join(dir, name)).size;
      } catch {
        return 0;
      }
    })
    .reduce((a, b) => a + b, 0);
  return { rows, seconds, bytes };
}

const n = (value: number) => value.toLocaleString("en-US");

/** One line a person reads: the flood, the rows kept against the bound, the store's size. */
export function describeFlood({ rows, seconds, bytes }: Awaited<ReturnType<typeof floodFormCounts>>): string {
  return (
    `${n(FLOOD.beacons)} beacons over ${FLOOD.hours} h, ${FLOOD.campaigns.length} campaigns, ${n(FLOOD.channels)} channels in ${seconds.toFixed(1)} s: ` +
    `${n(rows.length)} rows kept (bound ${n(FLOOD_BOUND)}: campaign × hour × step × reason × ${FLOOD.cap} channels + direct + other × device), ` +
    `${n(rows.reduce((sum, row) => sum + row.count, 0))} counted, store ${(bytes / 1024 / 1024).toFixed(1)} MB on disk`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = mkdtempSync(join(tmpdir(), "givekit-form-counts-"));
  try {
    process.stdout.write(`${describeFlood(await floodFormCounts(dir))}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
