import { describe, expect, it } from "vitest";
import { runInSlices, sortInSteps } from "./sort-in-steps";

/** Runs the steps to the end; the sorted items and the comparisons made in each step. */
function run<T>(items: readonly T[], compare: (a: T, b: T) => number): { sorted: T[]; perStep: number[] } {
  const perStep = [0];
  const steps = sortInSteps(items, (a, b) => {
    perStep[perStep.length - 1]!++;
    return compare(a, b);
  });
  for (;;) {
    const step = steps.next();
    if (step.done) return { sorted: step.value, perStep };
    perStep.push(0);
  }
}

const byNumber = (a: number, b: number) => a - b;

describe("a sort in steps", () => {
  it("sorts as Array.prototype.sort does, leaving its input as it was", () => {
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (const count of [0, 1, 2, 1023, 1024, 1025, 5000, 20_001]) {
      const items = Array.from({ length: count }, () => random() % 1000);
      const before = [...items];
      expect(run(items, byNumber).sorted).toEqual(items.toSorted(byNumber));
      expect(items).toEqual(before);
    }
  });

  it("keeps equal items in the order they came", () => {
    const items = Array.from({ length: 9000 }, (_, index) => ({ key: (index * 7) % 3, index }));
    const { sorted } = run(items, (a, b) => a.key - b.key);
    for (let at = 1; at < sorted.length; at++) {
      const [a, b] = [sorted[at - 1]!, sorted[at]!];
      expect(a.key < b.key || (a.key === b.key && a.index < b.index)).toBe(true);
    }
  });

  it("never does much in one step, however many items (50,000 sorted at once: about 700,000 comparisons)", () => {
    const items = Array.from({ length: 50_000 }, (_, index) => (index * 7919) % 50_000);
    const { sorted, perStep } = run(items, byNumber);
    expect(sorted).toEqual(items.toSorted(byNumber));
    expect(Math.max(...perStep)).toBeLessThanOrEqual(12_000);
    expect(perStep.length).toBeGreaterThan(100);
  });
});

/** Holds the thread `ms` milliseconds, as a step of real work would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("steps run in slices", () => {
  it("give the event loop back while they run, and end with the generator's value", async () => {
    let steps = 0;
    function* work(): Generator<void, string> {
      for (; steps < 60; steps++) {
        busy(1);
        yield;
      }
      return "done";
    }
    let servedAtStep = -1;
    // A request waiting meanwhile: it is served before the work ends, not after.
    setImmediate(() => (servedAtStep = steps));
    expect(await runInSlices(work(), 5)).toBe("done");
    // Served (at the first slice's end: step 0 when the machine paused the first step past the slice).
    expect(servedAtStep).toBeGreaterThanOrEqual(0);
    expect(servedAtStep).toBeLessThan(60);
  });
});
