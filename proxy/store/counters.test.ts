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
      take: (bucket) => (failing ? Promise.reject(new Error("store unavailable")) : shared.take(bucket)),
      remember: (key, value, ttlMs) =>
        failing ? Promise.reject(new Error("store unavailable")) : shared.remember(key, value, ttlMs),
      recall: (key) => (failing ? Promise.reject(new Error("store unavailable")) : shared.recall(key)),
      notesUnder: (prefix) =>
        failing ? Promise.reject(new Error("store unavailable")) : shared.notesUnder(prefix),
    };
    const counters = withFallback(flaky);
    await counters.add([hit("tokens:a")]);
    expect((await counters.add([hit("tokens:a")]))[0]!.points).toBe(2);
    failing = false;
    expect((await counters.add([hit("tokens:a")]))[0]!.points).toBe(1);
  });

  it("a bucket gives its burst at once, then one turn per interval; a refused turn takes nothing", async () => {
    let now = 1_000_000;
    const counters = memoryCounters(() => now);
    const bucket = { key: "bucket:tokens:a", burst: 3, intervalMs: 500 };
    const turns = [];
    for (let i = 0; i < 5; i++) turns.push((await counters.take(bucket)).allowed);
    expect(turns).toEqual([true, true, true, false, false]);
    // The next turn comes one interval after the burst began; refusals did not push it later.
    expect(await counters.take(bucket)).toEqual({ allowed: false, retryAt: 1_000_500 });
    now = 1_000_500;
    expect((await counters.take(bucket)).allowed).toBe(true);
    expect((await counters.take(bucket)).allowed).toBe(false);
    // A room at the bucket's pace: one every interval, for as long as it lasts, is never refused.
    for (let i = 0; i < 100; i++) {
      now += 500;
      expect((await counters.take(bucket)).allowed).toBe(true);
    }
    // Other keys are other buckets.
    expect((await counters.take({ ...bucket, key: "bucket:tokens:b" })).allowed).toBe(true);
  });
});
