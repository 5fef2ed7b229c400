/**
 * The dashboard's retention: its counts (form_step_counts, ops_counts) gain a set of rows each
 * hour, so hours older than GIVEKIT_DASHBOARD_KEEP_DAYS are deleted by the hourly purge
 * (proxy/jobs.ts), a bounded batch at a time with the event loop given back between batches.
 */
import type { FormCountStore } from "../store";

const HOUR_MS = 3_600_000;
/** Rows deleted per table and statement: short enough that no write waits long behind one. */
export const PRUNE_BATCH = 1000;

/** The first hour (whole hours since the epoch) kept when `keepDays` are kept as of `now`. */
export function firstKeptHour(keepDays: number, now: number): number {
  return Math.floor(now / HOUR_MS) - keepDays * 24;
}

/**
 * Deletes the counts of hours before `keepDays` days ago, PRUNE_BATCH rows per table at a time,
 * until none is left; resolves with how many rows went.
 */
export async function pruneDashboardCounts(
  store: Pick<FormCountStore, "pruneDashboardCounts">,
  keepDays: number,
  now: number,
  batch = PRUNE_BATCH,
): Promise<number> {
  const before = firstKeptHour(keepDays, now);
  let pruned = 0;
  for (;;) {
    const gone = await store.pruneDashboardCounts(before, batch);
    pruned += gone;
    if (gone === 0) return pruned;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
