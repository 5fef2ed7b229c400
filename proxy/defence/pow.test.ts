import { describe, expect, it } from "vitest";
import { solvePow } from "../../test/helpers/pow-solver";
import { createPow } from "./pow";

const CONFIG = { work: 200, maxLevel: 3, ttlS: 300 };
const SECRET = "s".repeat(32);

describe("givekit's own challenge", () => {
  it("a solution for its session and level passes once, on any proxy with the same secret", async () => {
    const pow = createPow(CONFIG, { secret: SECRET, counters: null });
    const challenge = await pow.issue("session-a", 1);
    expect(challenge).toMatchObject({ provider: "pow", parameters: { algorithm: "SHA-256", cost: 1 } });
    const proof = await solvePow(challenge);
    const other = createPow(CONFIG, { secret: SECRET, counters: null });
    expect(await other.verify(proof, "session-a", 1)).toEqual({ kind: "passed", level: 1 });
    // Single use where the counters are shared (one proxy's memory here).
    expect(await other.verify(proof, "session-a", 1)).toEqual({ kind: "failed", reason: "replayed" });
  });

  it("refuses a forged, another session's, a malformed or a wrong solution", async () => {
    const pow = createPow(CONFIG, { secret: SECRET, counters: null });
    const theirs = createPow(CONFIG, { secret: "t".repeat(32), counters: null });
    const forged = await solvePow(await theirs.issue("session-a", 0));
    expect(await pow.verify(forged, "session-a", 0)).toEqual({ kind: "failed", reason: "forged" });
    const foreign = await solvePow(await pow.issue("session-b", 0));
    expect(await pow.verify(foreign, "session-a", 0)).toEqual({ kind: "failed", reason: "foreign" });
    for (const text of ["", "x", "a~1~2", "~".repeat(5000)])
      expect(await pow.verify(text, "session-a", 0)).toEqual({ kind: "failed", reason: "malformed" });
    const good = await solvePow(await pow.issue("session-a", 0));
    const [signed, counter] = good.split("~");
    const wrong = `${signed}~${Number(counter) + 1}~${"ab".repeat(32)}`;
    expect(await pow.verify(wrong, "session-a", 0)).toEqual({ kind: "failed", reason: "wrong" });
    // The signed challenge changed by one character: its signature no longer holds.
    const tampered = `${signed!.slice(0, -2)}${signed!.endsWith("A") ? "B" : "A"}${signed!.slice(-1)}~${counter}~${good.split("~")[2]}`;
    expect((await pow.verify(tampered, "session-a", 0)).kind).toBe("failed");
  });

  it("an expired solution fails; one for an easier level than asked now is answered with a new challenge", async () => {
    const short = createPow({ ...CONFIG, ttlS: 1 }, { secret: SECRET, counters: null });
    const late = await solvePow(await short.issue("session-a", 0));
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await short.verify(late, "session-a", 0)).toEqual({ kind: "failed", reason: "expired" });
    const pow = createPow(CONFIG, { secret: SECRET, counters: null });
    const easy = await solvePow(await pow.issue("session-a", 0));
    expect(await pow.verify(easy, "session-a", 2)).toEqual({ kind: "too_easy", level: 0 });
  });

  it("costs more work as its level rises", async () => {
    const pow = createPow({ ...CONFIG, work: 1000 }, { secret: SECRET, counters: null });
    // The mean of 32 solutions' counters: with 8, a run fell outside 500-1400 now and then (CI, 2026-12-07).
    const counters = async (level: number) => {
      let sum = 0;
      for (let i = 0; i < 32; i++) sum += Number((await solvePow(await pow.issue("s", level))).split("~")[1]);
      return sum / 32;
    };
    const [zero, two] = [await counters(0), await counters(2)];
    expect(zero).toBeGreaterThan(500);
    expect(zero).toBeLessThan(1400);
    expect(two).toBeGreaterThan(zero * 3);
  });
});
