/**
 * The form step counts stay bounded: a million beacons' counts (each a count of 1, as
 * POST /v1/form-events adds them) over 24 hours of 3 campaigns, with 5,000 made-up channels
 * and every step and reason, added to a fresh SQLite store; it prints the rows kept, the bound
 * (campaign × hour × step × reason × channel × device, channels capped) and the file's size.
 *
 *   npx tsx bench/form-counts.ts
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countedChannel, DEVICE_CLASSES, FORM_REASONS, FORM_STEPS } from "../contract/form-steps";
import { CONFIG_DEFAULTS } from "../proxy/config";
import { openSqliteStore } from "../proxy/store/sqlite";
import type { FormStepCount } from "../proxy/store/types";

const BEACONS = 1_000_000;
const HOURS = 24;
const CAMPAIGNS = ["71777/HOPE", "71777/GALA", "41444/MEALS"];
const CHANNELS = 5_000;
const BATCH = 1_000;
const cap = Number(CONFIG_DEFAULTS.GIVEKIT_DASHBOARD_CHANNELS);

const dir = mkdtempSync(join(tmpdir(), "givekit-form-counts-"));
const store = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
const firstHour = Math.floor(Date.now() / 3_600_000);
let seed = 46;
const pick = <T>(list: readonly T[]) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return list[(seed >>> 8) % list.length]!;
};
const channels = Array.from({ length: CHANNELS }, (_, i) => (i % 10 === 0 ? `made up ${i}` : `channel-${i}`));
const started = performance.now();
for (let sent = 0; sent < BEACONS; sent += BATCH) {
  const batch: FormStepCount[] = [];
  for (let i = 0; i < BATCH; i++)
    batch.push({
      campaign: pick(CAMPAIGNS),
      hour: firstHour + ((sent + i) % HOURS),
      step: pick(FORM_STEPS),
      reason: pick(FORM_REASONS),
      channel: countedChannel(pick(channels)),
      device: pick(DEVICE_CLASSES),
      count: 1,
    });
  await store.addFormCounts(batch, cap);
}
const rows = await store.formCounts({ fromHour: firstHour, toHour: firstHour + HOURS });
await store.close();
const bytes = ["givekit.db", "givekit.db-wal"]
  .map((name) => {
    try {
      return statSync(join(dir, name)).size;
    } catch {
      return 0;
    }
  })
  .reduce((a, b) => a + b, 0);
const bound =
  CAMPAIGNS.length * HOURS * FORM_STEPS.length * FORM_REASONS.length * (cap + 2) * DEVICE_CLASSES.length;
process.stdout.write(
  `${BEACONS.toLocaleString("en-US")} beacons over ${HOURS} h, ${CAMPAIGNS.length} campaigns, ${CHANNELS.toLocaleString("en-US")} channels` +
    ` in ${((performance.now() - started) / 1000).toFixed(1)} s:\n` +
    `  rows kept ${rows.length.toLocaleString("en-US")} (bound ${bound.toLocaleString("en-US")}: campaign × hour × step × reason × ${cap} channels + direct + other × device)\n` +
    `  counted ${rows.reduce((sum, row) => sum + row.count, 0).toLocaleString("en-US")}; store ${(bytes / 1024 / 1024).toFixed(1)} MB on disk\n`,
);
rmSync(dir, { recursive: true, force: true });
