import { describe, expect, it } from "vitest";
import { memoryCounters, mergeHits, withFallback } from "./counters";
import type { Counters } from "./types";

const hit = (key: string, points = 1, ttlMs = 60_000) => ({ key, points, ttlMs });

describe("counters", () => {
  it("merge hits on one key and sort keys, so every statement locks rows in one order", () => {
    expect(mergeHits([hit("b"), hit("a", 2), hit("b", 3, 5)])).toEqual([hit("a", 2), hit("b", 4)]);
  });

  it("in memory: forget counters whose time is over, on the next sweep", async () => {
    let now = 0;
    const counters = memoryCounters(() => now);
    for (let i = 0; i < 1000; i++) await counters.add([hit(`tokens:198.51.100.${i}`)]);
    now = 120_000;
    // A fresh count for an old key, and the thousand others gone (their memory too).
    expect(await counters.add([hit("tokens:198.51.100.1")])).toEqual([{ points: 1, resetAt: 180_000 }]);
  });

  it("while the shared store fails, count in this process's memory, and go back to it after", async () => {
    let failing = true;
    const shared = memoryCounters();
    const flaky: Counters = {
      add: (hits) => (failing ? Promise.reject(new Error("store unavailable")) : shared.add(hits)),
      set: (hits) => (failing ? Promise.reject(new Error("store unavailable")) : shared.set(hits)),
    };
    const counters = withFallback(flaky);
    await counters.add([hit("tokens:a")]);
    expect((await counters.add([hit("tokens:a")]))[0]!.points).toBe(2);
    failing = false;
    expect((await counters.add([hit("tokens:a")]))[0]!.points).toBe(1);
  });
});
