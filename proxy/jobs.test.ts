// Stopping the proxy's jobs while a reconcile pass is under way: stop() waits for the pass to
// finish its attempt (the store is not closed under it), but never longer than the bound it is
// given (the proxy's drain), and starts no further pass.
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { TransactionRow } from "../contract/upstream";
import { reportRow } from "../test/helpers/fake-upstream";
import { unknownStore } from "../test/helpers/unknown-store";
import { startJobs } from "./jobs";
import type { Store } from "./store/types";
import type { UpstreamClient } from "./upstream/client";

const CREATED = Date.parse("2026-11-23T10:00:00Z");
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).toReversed()) await step();
});

/** A store holding one unknown $25.00 attempt, `gk_stop`. */
const storeWithUnknown = (): Promise<Store> => unknownStore(["gk_stop"], { now: CREATED }, cleanup);

/** An upstream whose report is slow: it says when it is asked, then answers after `answerMs` (never: hangs). */
function slowReport(answerMs: number | "never") {
  let asked!: () => void;
  const reportAsked = new Promise<void>((resolve) => (asked = resolve));
  let reports = 0;
  const upstream = {
    async eachTransaction(_filter: unknown, onRow: (row: TransactionRow) => void) {
      reports++;
      asked();
      if (answerMs === "never") await new Promise(() => undefined);
      else await new Promise((resolve) => setTimeout(resolve, answerMs as number));
      onRow(reportRow({ transaction_id: "901", source: "api_via_givekit.gk_stop" }));
      return { rows: 1, skipped: 0 };
    },
  };
  return { upstream: upstream as unknown as UpstreamClient, reportAsked, reports: () => reports };
}

const jobsOn = (store: Store, upstream: UpstreamClient) =>
  startJobs({
    store,
    upstream,
    logger: pino({ level: "silent" }),
    reconcileIntervalS: 0.05,
    reconcileSettleS: 900,
  });

describe("stopping the jobs during a reconcile pass", () => {
  it("waits for the pass's attempt to be settled in the store before it resolves", async () => {
    const store = await storeWithUnknown();
    const report = slowReport(400);
    const jobs = await jobsOn(store, report.upstream);
    await report.reportAsked;
    await jobs.stop(5000);
    // Settled by the pass that was under way, before the store could be closed.
    expect(await store.attempt("gk_stop")).toMatchObject({ state: "succeeded", transaction_id: "901" });
    // And no pass after the stop.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(report.reports()).toBe(1);
  });

  it("waits no longer than its bound for a pass that does not end", async () => {
    const store = await storeWithUnknown();
    const report = slowReport("never");
    const jobs = await jobsOn(store, report.upstream);
    await report.reportAsked;
    const started = performance.now();
    await jobs.stop(300);
    const tookMs = performance.now() - started;
    expect(tookMs).toBeGreaterThanOrEqual(250);
    expect(tookMs).toBeLessThan(2000);
    expect((await store.attempt("gk_stop"))?.state).toBe("unknown");
  });
});
