/**
 * Counters with a time to live: what the per-client rate limits and the defence signals count.
 * Several counters change in one call, which on PostgreSQL is one statement (one round trip),
 * where a limiter per counter would send one each: a card tokenization's signals touch up to ten.
 */
import type { BucketState, BucketTake, CounterHit, CounterState, Counters, SharedNotes } from "./types";

/**
 * One turn of a token bucket kept as its theoretical arrival time `tat` (GCRA): a turn is there
 * while taking it leaves the bucket no more than `burst` intervals ahead of now.
 */
export function bucketTurn(
  tat: number,
  bucket: BucketTake,
  now: number,
): { state: BucketState; tat: number } {
  const next = Math.max(tat, now) + bucket.intervalMs;
  const allowedUntil = bucket.burst * bucket.intervalMs;
  if (next - now <= allowedUntil) return { state: { allowed: true, retryAt: now }, tat: next };
  return { state: { allowed: false, retryAt: next - allowedUntil }, tat };
}

/** Hits on one key add up; the first hit's time to live stands. Sorted by key (see below). */
export function mergeHits(hits: readonly CounterHit[]): CounterHit[] {
  const byKey = new Map<string, CounterHit>();
  for (const hit of hits) {
    const seen = byKey.get(hit.key);
    byKey.set(hit.key, seen ? { ...seen, points: seen.points + hit.points } : hit);
  }
  // One order for every caller: two statements locking the same rows lock them in the same order.
  return [...byKey.values()].toSorted((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Each hit's state, in the order of `hits`, from the states of the merged keys. */
export function statesInOrder(
  hits: readonly CounterHit[],
  states: Map<string, CounterState>,
): CounterState[] {
  return hits.map((hit) => states.get(hit.key)!);
}

/** How often the memory counters drop the ones whose time is over. */
const SWEEP_EVERY_MS = 60_000;

/**
 * This process's counters, in memory: one proxy's (SQLite), or a shared store's stand-in while
 * its database is out of reach.
 *
 * @example
 * const counters = memoryCounters();
 * const [tokens] = await counters.add([{ key: "tokens:198.51.100.7", points: 1, ttlMs: 600_000 }]);
 * tokens.points; // 1
 */
export function memoryCounters(now: () => number = Date.now): Counters {
  const counts = new Map<string, CounterState>();
  const notes = new Map<string, { value: string; expire: number }>();
  // A bucket whose arrival time is past is full: dropping it changes nothing.
  const buckets = new Map<string, number>();
  let swept = now();
  const sweep = (at: number) => {
    if (at - swept < SWEEP_EVERY_MS) return;
    swept = at;
    for (const [key, state] of counts) if (state.resetAt <= at) counts.delete(key);
    for (const [key, tat] of buckets) if (tat <= at) buckets.delete(key);
    for (const [key, note] of notes) if (note.expire <= at) notes.delete(key);
  };
  return {
    async add(hits) {
      const at = now();
      sweep(at);
      const states = new Map<string, CounterState>();
      for (const hit of mergeHits(hits)) {
        const current = counts.get(hit.key);
        const next =
          current && current.resetAt > at
            ? { points: current.points + hit.points, resetAt: current.resetAt }
            : { points: hit.points, resetAt: at + hit.ttlMs };
        counts.set(hit.key, next);
        states.set(hit.key, next);
      }
      return statesInOrder(hits, states);
    },
    async set(hits) {
      const at = now();
      for (const hit of mergeHits(hits)) counts.set(hit.key, { points: hit.points, resetAt: at + hit.ttlMs });
    },
    async take(bucket) {
      const at = now();
      sweep(at);
      const turn = bucketTurn(buckets.get(bucket.key) ?? at, bucket, at);
      buckets.set(bucket.key, turn.tat);
      return turn.state;
    },
    async remember(key, value, ttlMs) {
      const at = now();
      sweep(at);
      notes.set(key, { value, expire: at + ttlMs });
    },
    async recall(key) {
      const note = notes.get(key);
      return note && note.expire > now() ? note.value : null;
    },
    async notesUnder(prefix) {
      const at = now();
      return [...notes]
        .filter(([key, note]) => key.startsWith(prefix) && note.expire > at)
        .map(([key, note]) => ({ key, value: note.value, expire: note.expire }));
    },
  };
}

/**
 * A shared store's counters that fall back on this process's own while the store fails: a
 * proxy whose database is away still limits each client (as one proxy), and never refuses a
 * request for want of a counter.
 */
export function withFallback(shared: Counters, fallback: Counters = memoryCounters()): Counters {
  return {
    add: (hits) => shared.add(hits).catch(() => fallback.add(hits)),
    set: (hits) => shared.set(hits).catch(() => fallback.set(hits)),
    take: (bucket) => shared.take(bucket).catch(() => fallback.take(bucket)),
    remember: (key, value, ttlMs) =>
      shared.remember(key, value, ttlMs).catch(() => fallback.remember(key, value, ttlMs)),
    recall: async (key) => (await shared.recall(key).catch(() => null)) ?? fallback.recall(key),
    notesUnder: (prefix) => shared.notesUnder(prefix).catch(() => fallback.notesUnder(prefix)),
  };
}

/**
 * A form session's channel and device while its gift is Pending (proxy/dashboard/form-outcomes.ts),
 * for whoever settles the gift, `givekit reconcile` included.
 */
export const PENDING_FORM_NOTE_PREFIX = "form-pending:";

/** The notes kept where the command line reads them: the breakers open, the venues let through, the Pending gifts' channels. */
export const SHARED_NOTE_PREFIXES = ["breaker:", "breaker-allow:", PENDING_FORM_NOTE_PREFIX] as const;
const isShared = (key: string) => SHARED_NOTE_PREFIXES.some((prefix) => key.startsWith(prefix));

/**
 * One proxy's counters (SQLite) whose breaker, allowance and Pending gifts' notes live in the
 * store's shared notes, so `givekit defence status/allow`, `givekit reconcile` and the dashboard
 * see and change them beside it; the counts themselves stay in memory.
 *
 * @example
 * const counters = withSharedNotes(memoryCounters(), store.sharedNotes);
 */
export function withSharedNotes(local: Counters, shared: SharedNotes): Counters {
  return {
    ...local,
    remember: (key, value, ttlMs) =>
      isShared(key) ? shared.remember(key, value, ttlMs) : local.remember(key, value, ttlMs),
    recall: (key) => (isShared(key) ? shared.recall(key) : local.recall(key)),
    notesUnder: (prefix) => (isShared(prefix) ? shared.notesUnder(prefix) : local.notesUnder(prefix)),
  };
}

/**
 * The counters a proxy's parts share: the store's (PostgreSQL, every proxy's), else this process's
 * memory with the breaker and allowance notes in the store (withSharedNotes). Made once per proxy:
 * the routes and the background jobs (a settled gift's thank-you) see the same marks.
 *
 * @example
 * const counters = proxyCounters(store);
 */
export const proxyCounters = (store: { counters: Counters | null; sharedNotes: SharedNotes }): Counters =>
  store.counters ?? withSharedNotes(memoryCounters(), store.sharedNotes);
