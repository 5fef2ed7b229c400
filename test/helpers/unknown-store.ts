/**
 * A SQLite store holding donation attempts whose outcome is unknown ($25.00 each for HOPE@71777,
 * their leases expired), for the reconciler's and the jobs' unit tests. `cleanup` is handed the
 * steps that close the store and remove its folder.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../proxy/store/sqlite";
import type { Store } from "../../proxy/store/types";
import { sendingAttempt } from "./sending-attempt";

/** The store's claim lease; the clock is moved past it so every attempt is unknown. */
export const UNKNOWN_LEASE_MS = 20_000;

export async function unknownStore(
  references: readonly string[],
  clock: { now: number },
  cleanup: (() => Promise<void> | void)[],
): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), "givekit-unknown-"));
  const store = openSqliteStore({
    dataDir: dir,
    retentionH: 24,
    leaseMs: UNKNOWN_LEASE_MS,
    now: () => clock.now,
  });
  cleanup.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => store.close(),
  );
  for (const reference of references) await sendingAttempt(store, reference, { scope: "s" });
  clock.now += UNKNOWN_LEASE_MS + 1;
  await store.expireLeases();
  return store;
}
