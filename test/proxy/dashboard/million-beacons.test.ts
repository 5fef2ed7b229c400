// The store after a million beacons holds only the bounded counts: a million beacons' counts (a
// count of 1 each, as POST /v1/form-events adds them, handed to the store ten thousand beacons at a
// time) over 24 hours of 3 campaigns, every step and reason, 5,000 channels (some no channel tag
// at all) and both device classes, into a fresh SQLite store. The rows kept stay within
// campaign × hour × step × reason × (cap + direct + other) × device, every beacon is counted, the
// table has the count's columns and nothing else, and the file's size is printed.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { countedChannel, DEVICE_CLASSES, FORM_REASONS, FORM_STEPS } from "../../../contract/form-steps";
import { CONFIG_DEFAULTS } from "../../../proxy/config";
import { openSqliteStore } from "../../../proxy/store/sqlite";
import { DB_FILE } from "../../../proxy/store/sqlite/data-dir";
import type { FormStepCount } from "../../../proxy/store/types";
import { openSqlite } from "../../../sqlite/open";

const BEACONS = 1_000_000;
const HOURS = 24;
const CAMPAIGNS = ["71777/HOPE", "71777/GALA", "41444/MEALS"];
const CHANNELS = 5_000;
const BATCH = 10_000;
const CAP = Number(CONFIG_DEFAULTS.GIVEKIT_DASHBOARD_CHANNELS);

const dir = mkdtempSync(join(tmpdir(), "givekit-million-beacons-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a million beacons leave only the bounded counts in the store", { timeout: 180_000 }, async () => {
  const store = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
  const firstHour = Math.floor(Date.now() / 3_600_000);
  let seed = 46;
  const pick = <T>(list: readonly T[]) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return list[(seed >>> 8) % list.length]!;
  };
  const channels = Array.from({ length: CHANNELS }, (_, i) =>
    i % 10 === 0 ? `made up ${i} <script>` : `channel-${i}`,
  );
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
    await store.addFormCounts(batch, CAP);
  }
  const addedS = (performance.now() - started) / 1000;
  const rows = await store.formCounts({ fromHour: firstHour, toHour: firstHour + HOURS });
  await store.close();

  const bound =
    CAMPAIGNS.length * HOURS * FORM_STEPS.length * FORM_REASONS.length * (CAP + 2) * DEVICE_CLASSES.length;
  expect(rows.length).toBeLessThanOrEqual(bound);
  expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(BEACONS);
  // Per campaign and hour: at most the cap of channels, besides direct and other.
  const channelsOf = new Map<string, Set<string>>();
  for (const row of rows) {
    const key = `${row.campaign} ${row.hour}`;
    channelsOf.set(key, (channelsOf.get(key) ?? new Set()).add(row.channel));
  }
  for (const seen of channelsOf.values()) {
    expect([...seen].filter((c) => c !== "direct" && c !== "other").length).toBeLessThanOrEqual(CAP);
  }
  // The table holds the count's columns and nothing else.
  const db = openSqlite(join(dir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    const columns = (db.prepare("PRAGMA table_info(form_step_counts)").all() as { name: string }[]).map(
      (column) => column.name,
    );
    expect(columns.toSorted()).toEqual(["campaign", "channel", "count", "device", "hour", "reason", "step"]);
  } finally {
    db.close();
  }
  const bytes = [DB_FILE, `${DB_FILE}-wal`]
    .map((name) => {
      try {
        return statSync(join(dir, name)).size;
      } catch {
        return 0;
      }
    })
    .reduce((a, b) => a + b, 0);
  process.stdout.write(
    `${BEACONS.toLocaleString("en-US")} beacons over ${HOURS} h, ${CAMPAIGNS.length} campaigns, ${CHANNELS.toLocaleString("en-US")} channels, added in ${addedS.toFixed(1)} s: ` +
      `${rows.length.toLocaleString("en-US")} rows kept (bound ${bound.toLocaleString("en-US")}), store ${(bytes / 1024 / 1024).toFixed(1)} MB on disk\n`,
  );
  // Generous: a row of the bound is well under 200 bytes with its index, plus the empty store's own pages.
  expect(bytes).toBeLessThan(bound * 200 + 8 * 1024 * 1024);
});
