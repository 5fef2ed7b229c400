// Two reconcilers (two proxies) on one PostgreSQL database, passing at the same moment: each
// unknown attempt is looked up and resolved by exactly one of them.
import { afterEach, describe, expect, it } from "vitest";
import { createReconciler } from "../../../proxy/reconcile/reconciler";
import { openPostgresStore } from "../../../proxy/store/postgres";
import type { Store } from "../../../proxy/store/types";
import type { TransactionRow } from "../../../contract/upstream";
import { reportRow } from "../../helpers/fake-upstream";
import { testDatabase } from "../../helpers/postgres";
import { sendingAttempt } from "../../helpers/sending-attempt";

const LEASE_MS = 20_000;
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

describe("two reconcilers on one PostgreSQL", () => {
  it("resolve each unknown attempt once, never twice", async () => {
    const url = await testDatabase();
    const clock = { now: Date.parse("2026-11-23T10:00:00Z") };
    const open = async () => {
      const store = await openPostgresStore({
        url,
        retentionH: 24,
        leaseMs: LEASE_MS,
        poolMax: 4,
        connectTimeoutMs: 2000,
        now: () => clock.now,
      });
      stores.push(store);
      return store;
    };
    const [a, b] = [await open(), await open()];
    const references = Array.from({ length: 8 }, (_, i) => `gk_${String(i).padStart(20, "0")}`);
    for (const reference of references)
      await sendingAttempt(a, reference, { scope: "origin:x", amount: "777.77" });
    clock.now += LEASE_MS + 1;
    expect(await a.expireLeases()).toBe(8);

    const rows: TransactionRow[] = references.map((reference, i) =>
      reportRow({
        transaction_id: `${500 + i}`,
        amount: "777.77",
        donation_amount: "777.77",
        source: `api_via_givekit.${reference}`,
        created_at: new Date(clock.now - LEASE_MS).toISOString(),
      }),
    );
    let reports = 0;
    const upstream = {
      async eachTransaction(_filter: unknown, onRow: (row: TransactionRow) => void) {
        reports++;
        // A report takes a while: the two passes overlap.
        await new Promise((resolve) => setTimeout(resolve, 30));
        for (const row of rows) onRow(row);
        return { rows: rows.length, skipped: 0 };
      },
    };
    const first = createReconciler({ store: a, upstream, settleS: 900, now: () => clock.now });
    const second = createReconciler({ store: b, upstream, settleS: 900, now: () => clock.now });
    const [stepsA, stepsB] = await Promise.all([first.pass(), second.pass()]);

    const resolved = [...stepsA, ...stepsB].filter((step) => step.result === "succeeded");
    expect(resolved.map((step) => step.reference).toSorted()).toEqual(references);
    expect(reports).toBe(8);
    for (const [i, reference] of references.entries()) {
      expect(await b.attempt(reference)).toMatchObject({ state: "succeeded", transaction_id: `${500 + i}` });
    }
  });
});
