import { describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import type { OpsCount } from "../store";
import { createOpsCounter, OPS_KINDS } from "./ops-counts";

const HOUR_MS = 3_600_000;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("the ops counter", () => {
  it("merges one turn's counts into one write, by campaign, hour, kind and label; the account's as '*'", async () => {
    const writes: (readonly OpsCount[])[] = [];
    const ops = createOpsCounter({
      store: { addOpsCounts: async (counts) => void writes.push(counts), opsCounts: async () => [] },
      logger: createLogger("silent"),
      now: () => 10 * HOUR_MS + 5,
    });
    ops.count("71777/HOPE", OPS_KINDS.declined);
    ops.count("71777/HOPE", OPS_KINDS.declined);
    ops.time(undefined, OPS_KINDS.upstreamMs, 120);
    ops.count("71777/HOPE", OPS_KINDS.refused, "challenge_failed");
    await nextTurn();
    expect(writes).toEqual([
      [
        { campaign: "71777/HOPE", hour: 10, kind: "declined", label: "", count: 2 },
        { campaign: "*", hour: 10, kind: "upstream_ms", label: "250", count: 1 },
        { campaign: "71777/HOPE", hour: 10, kind: "refused", label: "challenge_failed", count: 1 },
      ],
    ]);
    ops.count("71777/HOPE", OPS_KINDS.declined);
    await nextTurn();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toEqual([{ campaign: "71777/HOPE", hour: 10, kind: "declined", label: "", count: 1 }]);
  });

  it("a store that fails loses the counts with a warning, and throws at no one", async () => {
    const lines: string[] = [];
    const ops = createOpsCounter({
      store: {
        addOpsCounts: () => Promise.reject(new Error("the store is away")),
        opsCounts: async () => [],
      },
      logger: createLogger("info", { write: (line: string) => lines.push(line) }),
    });
    expect(() => ops.count("71777/HOPE", OPS_KINDS.declined)).not.toThrow();
    await nextTurn();
    await nextTurn();
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      { event: "ops_count_lost", counts: 1, error: "the store is away" },
    ]);
  });
});
