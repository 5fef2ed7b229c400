// The store after a million beacons holds only the bounded counts: a million beacons' counts (a
// count of 1 each, as POST /v1/form-events adds them, handed to the store ten thousand beacons at a
// time) over 24 hours of 3 campaigns, every step and reason, 5,000 channels (some no channel tag
// at all) and both device classes, into a fresh SQLite store. The rows kept stay within
// campaign × hour × step × reason × (cap + direct + other) × device, every beacon is counted, the
// table has the count's columns and nothing else, and the file's size is printed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { describeFlood, FLOOD, FLOOD_BOUND, floodFormCounts } from "../../../bench/form-counts";
import { DB_FILE } from "../../../proxy/store/sqlite/data-dir";
import { openSqlite } from "../../../sqlite/open";

const dir = mkdtempSync(join(tmpdir(), "givekit-million-beacons-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a million beacons leave only the bounded counts in the store", { timeout: 180_000 }, async () => {
  const flood = await floodFormCounts(dir);
  const { rows, bytes } = flood;
  expect(rows.length).toBeLessThanOrEqual(FLOOD_BOUND);
  expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(FLOOD.beacons);
  // Per campaign and hour: at most the cap of channels, besides direct and other.
  const channelsOf = new Map<string, Set<string>>();
  for (const row of rows) {
    const key = `${row.campaign} ${row.hour}`;
    channelsOf.set(key, (channelsOf.get(key) ?? new Set()).add(row.channel));
  }
  for (const seen of channelsOf.values()) {
    expect([...seen].filter((c) => c !== "direct" && c !== "other").length).toBeLessThanOrEqual(FLOOD.cap);
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
  process.stdout.write(`${describeFlood(flood)}\n`);
  // Generous: a row of the bound is well under 200 bytes with its index, plus the empty store's own pages.
  expect(bytes).toBeLessThan(FLOOD_BOUND * 200 + 8 * 1024 * 1024);
});
