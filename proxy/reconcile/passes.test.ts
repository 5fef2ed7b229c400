// One reconcile pass against a report that fails, has no row yet, or cannot tell two attempts
// apart: the attempt stays unknown with a note a person can read, and nothing is guessed.
import { afterEach, describe, expect, it } from "vitest";
import type { TransactionRow } from "../../contract/upstream";
import { createReconciler } from "./reconciler";
import { reportRow } from "../../test/helpers/fake-upstream";
import { unknownStore } from "../../test/helpers/unknown-store";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).toReversed()) await step();
});

describe("a reconcile pass", () => {
  it("a failing report leaves the attempt unknown, warns, and the next pass resolves it", async () => {
    const clock = { now: Date.parse("2026-11-23T10:00:00Z") };
    const store = await unknownStore(["gk_a"], clock, cleanup);
    const warnings: string[] = [];
    let fail = true;
    const upstream = {
      async eachTransaction(_filter: unknown, onRow: (row: TransactionRow) => void) {
        if (fail) throw new Error("HTTP 503");
        onRow(reportRow({ transaction_id: "900", source: "api_via_givekit.gk_a" }));
        return { rows: 1, skipped: 1 };
      },
    };
    const reconciler = createReconciler({
      store,
      upstream,
      settleS: 900,
      now: () => clock.now,
      warn: (_fields, message) => warnings.push(message),
    });
    expect(await reconciler.pass()).toEqual([{ reference: "gk_a", result: "report_failed" }]);
    expect((await store.attempt("gk_a"))?.state).toBe("unknown");
    expect(warnings).toEqual([expect.stringContaining("report failed")]);
    fail = false;
    expect(await reconciler.pass()).toEqual([
      { reference: "gk_a", result: "succeeded", transaction_id: "900" },
    ]);
    expect(warnings[1]).toContain("unexpected shape");
    expect(await store.attempt("gk_a")).toMatchObject({ state: "succeeded", transaction_id: "900" });
  });

  it("no row yet → unknown with 'waiting until …'; rows that fit two attempts → unknown, flagged ambiguous", async () => {
    const clock = { now: Date.parse("2026-11-23T10:00:00Z") };
    const store = await unknownStore(["gk_a", "gk_b"], clock, cleanup);
    let rows: TransactionRow[] = [];
    const reconciler = createReconciler({
      store,
      upstream: {
        eachTransaction: async (_filter, onRow) => {
          for (const row of rows) onRow(row);
          return { rows: rows.length, skipped: 0 };
        },
      },
      settleS: 900,
      now: () => clock.now,
    });
    await reconciler.pass();
    const created = (await store.attempt("gk_a"))!.created_at;
    const until = new Date(Date.parse(created) + 900_000).toISOString();
    expect((await store.attempt("gk_a"))?.note).toBe(
      `waiting until ${until}: no transaction in the report yet`,
    );

    // Two untagged rows of the same amount, in the window: either could be either attempt's.
    const at = new Date(Date.parse(created) + 1000).toISOString();
    rows = [
      reportRow({ transaction_id: "1", source: "api_via_givekit", created_at: at, email: null }),
      reportRow({ transaction_id: "2", source: "api_via_givekit", created_at: at, email: null }),
    ];
    const steps = await reconciler.pass();
    expect(steps.map((step) => step.result)).toEqual(["unknown", "unknown"]);
    // One untagged row that fits both is given to neither.
    rows = [reportRow({ transaction_id: "1", source: "api_via_givekit", created_at: at, email: null })];
    expect((await reconciler.pass()).map((step) => step.result)).toEqual(["unknown", "unknown"]);
    for (const reference of ["gk_a", "gk_b"]) {
      expect(await store.attempt(reference)).toMatchObject({
        state: "unknown",
        transaction_id: null,
        note: expect.stringMatching(/^ambiguous, for a person to decide: /),
      });
    }
  });
});
