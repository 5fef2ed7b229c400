/**
 * A sort cut into steps, for background work that must give the event loop back: runs of
 * RUN_LENGTH items are sorted one by one, then merged pairwise, the generator pausing (a bare
 * `yield`) every MERGE_STEP items placed. One native sort of 50,000 peers by name held the proxy
 * for 90-130 ms; each step here is a fraction of a millisecond to a few. Stable, like
 * Array.prototype.sort: of two equal items the one first in `items` stays first. The merges go
 * back and forth between two arrays of the items' length, made once: no garbage per pass.
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
  const count = items.length;
  let from = items.slice();
  for (let at = 0; at < count; at += RUN_LENGTH) {
    const run = from.slice(at, at + RUN_LENGTH).toSorted(compare);
    for (let index = 0; index < run.length; index++) from[at + index] = run[index]!;
    yield;
  }
  let to = Array.from<T>({ length: count });
  let placed = 0;
  for (let width = RUN_LENGTH; width < count; width *= 2) {
    for (let low = 0; low < count; low += 2 * width) {
      const middle = Math.min(low + width, count);
      const high = Math.min(low + 2 * width, count);
      let left = low;
      let right = middle;
      let out = low;
      while (left < middle && right < high) {
        // Only a strictly smaller right item goes first: equal items keep their order.
        to[out++] = compare(from[right]!, from[left]!) < 0 ? from[right++]! : from[left++]!;
        if (++placed % MERGE_STEP === 0) yield;
      }
      while (left < middle) to[out++] = from[left++]!;
      while (right < high) to[out++] = from[right++]!;
      yield;
    }
    [from, to] = [to, from];
  }
  return from;
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
