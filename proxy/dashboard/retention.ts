/**
 * The dashboard's retention: its counts (form_step_counts, ops_counts) gain a set of rows each
 * hour, so hours older than GIVEKIT_DASHBOARD_KEEP_DAYS are deleted as the proxy starts and hourly
 * after (proxy/jobs.ts, in the background), a bounded batch at a time with the event loop given
 * back between batches.
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
 * Deletes the counts of hours before `keepDays` days ago, `batch` rows per table at a time, until
 * none is left or `signal` aborts (between batches); resolves with how many rows went.
 */
export async function pruneDashboardCounts(
  store: Pick<FormCountStore, "pruneDashboardCounts">,
  keepDays: number,
  now: number,
  options: { batch?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const before = firstKeptHour(keepDays, now);
  const batch = options.batch ?? PRUNE_BATCH;
  let pruned = 0;
  for (;;) {
    const gone = await store.pruneDashboardCounts(before, batch);
    pruned += gone;
    if (gone === 0 || options.signal?.aborted) return pruned;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
