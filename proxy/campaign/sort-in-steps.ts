/**
 * A sort cut into steps, for background work that must give the event loop back: runs of
 * RUN_LENGTH items are sorted one by one, then merged pairwise, the generator pausing (a bare
 * `yield`) every MERGE_STEP items placed. One native sort of 50,000 peers by name held the proxy
 * for 90-130 ms; each step here is a fraction of a millisecond to a few. Stable, like
 * Array.prototype.sort: of two equal items the one first in `items` stays first.
 */

/** Items sorted in one step (a few milliseconds with a locale comparison). */
const RUN_LENGTH = 1024;
/** Items placed by a merge between two pauses. */
const MERGE_STEP = 2048;

/**
 * @example
 * const steps = sortInSteps(peers, byName);
 * let step = steps.next();
 * while (!step.done) { await new Promise((resolve) => setImmediate(resolve)); step = steps.next(); }
 * const sorted = step.value;
 */
export function* sortInSteps<T>(items: readonly T[], compare: (a: T, b: T) => number): Generator<void, T[]> {
  let runs: T[][] = [];
  for (let at = 0; at < items.length; at += RUN_LENGTH) {
    runs.push(items.slice(at, at + RUN_LENGTH).toSorted(compare));
    yield;
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let index = 0; index < runs.length; index += 2) {
      const left = runs[index]!;
      const right = runs[index + 1];
      if (!right) {
        merged.push(left);
        continue;
      }
      const out: T[] = [];
      let l = 0;
      let r = 0;
      while (l < left.length && r < right.length) {
        // Only a strictly smaller right item goes first: equal items keep their order.
        out.push(compare(right[r]!, left[l]!) < 0 ? right[r++]! : left[l++]!);
        if (out.length % MERGE_STEP === 0) yield;
      }
      while (l < left.length) out.push(left[l++]!);
      while (r < right.length) out.push(right[r++]!);
      runs[index] = [];
      runs[index + 1] = [];
      merged.push(out);
      yield;
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

/**
 * Runs a generator's steps to its end, giving the event loop back (setImmediate) whenever
 * `sliceMs` has passed since it last did: many short steps cost no more than one pause per slice.
 *
 * @example
 * const sorted = await runInSlices(sortInSteps(hashes, byCodeUnit), 5);
 */
export async function runInSlices<R>(steps: Generator<void, R>, sliceMs: number): Promise<R> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
