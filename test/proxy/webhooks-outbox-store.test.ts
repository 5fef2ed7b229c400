// The webhook outbox in both stores: written in the transaction of what it tells of, claimed by
// one proxy at a time, in order per donation, taken over when a lease runs out, retried, replayed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../proxy/store/postgres";
import { openSqliteStore } from "../../proxy/store/sqlite";
import type { Claim, OutboxEvent, Store } from "../../proxy/store/types";
import { sql, testDatabase } from "../helpers/postgres";
import { sendingAttempt } from "../helpers/sending-attempt";

const LEASE_MS = 20_000;
const HOOK = "https://crm.example.org/givekit";
const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let databaseUrl: string | undefined;
const adapters = [
  {
    name: "sqlite",
    async place() {
      const dir = mkdtempSync(join(tmpdir(), "givekit-outbox-store-"));
      dirs.push(dir);
      return dir;
    },
    open: (dataDir: string, now: () => number) =>
      Promise.resolve(openSqliteStore({ dataDir, retentionH: 24, leaseMs: LEASE_MS, now })),
  },
  {
    name: "postgres",
    async place() {
      databaseUrl ??= await testDatabase();
      const probe = await openPostgresStore({
        url: databaseUrl,
        retentionH: 24,
        leaseMs: LEASE_MS,
        poolMax: 1,
        connectTimeoutMs: 2000,
      });
      await probe.close();
      await sql(
        databaseUrl,
        "TRUNCATE idempotency_keys, donation_attempts, consent_records, consent_texts, webhook_outbox RESTART IDENTITY",
      );
      return databaseUrl;
    },
    open: (url: string, now: () => number) =>
      openPostgresStore({ url, retentionH: 24, leaseMs: LEASE_MS, poolMax: 4, connectTimeoutMs: 2000, now }),
  },
];

const event = (eventId: string, orderKey: string, createdAt = 1_000): OutboxEvent => ({
  eventId,
  eventType: "donation.succeeded",
  endpoint: HOOK,
  orderKey,
  body: JSON.stringify({ id: eventId }),
  createdAt,
});

const success = {
  state: "succeeded" as const,
  upstream_status: 200,
  transaction_id: "100001",
  message: "Thank you",
  problem_code: null,
  problem_field: null,
};

const sending = (store: Store, reference: string): Promise<Claim> => sendingAttempt(store, reference);

const ids = (rows: { event_id: string }[]) => rows.map((row) => row.event_id);

describe.each(adapters)("the $name store's webhook outbox", (adapter) => {
  const clock = { now: 1_000_000 };
  async function open(place?: string): Promise<Store> {
    const store = await adapter.open(place ?? (await adapter.place()), () => clock.now);
    stores.push(store);
    return store;
  }

  it("keeps an attempt's events with its outcome, and none for an outcome not recorded", async () => {
    const store = await open();
    await sending(store, "gk_a");
    await store.finishAttempt("gk_a", success, [event("e1", "gk_a"), event("e2", "gk_a")]);
    // A second answer for a finished attempt records nothing, and tells nothing.
    await store.finishAttempt("gk_a", success, [event("e3", "gk_a")]);
    expect(ids(await store.webhooksPage({}, null, 10))).toEqual(["e1", "e2"]);
    expect((await store.attempt("gk_a"))?.state).toBe("succeeded");
  });

  it("keeps a consent record's events with it, and a resolution's only when it resolved", async () => {
    const store = await open();
    await store.recordConsent(
      {
        mobilenumber: "4155550132",
        list: "Hope Alerts",
        keyword: null,
        shortcode: null,
        consent_text_sha256: "ab".repeat(32),
        consent_text: "Reply STOP to end.",
        ip: "203.0.113.5",
        user_agent: null,
        page_url: null,
      },
      [event("optin", "optin")],
    );
    await sending(store, "gk_u");
    clock.now += LEASE_MS + 1;
    await store.expireLeases();
    const settled = { state: "not_charged" as const, transaction_id: null };
    expect(await store.resolveUnknown("gk_u", settled, [event("settled", "gk_u")])).toBe(true);
    expect(await store.resolveUnknown("gk_u", settled, [event("twice", "gk_u")])).toBe(false);
    expect(ids(await store.webhooksPage({}, null, 10))).toEqual(["optin", "settled"]);
  });

  it("hands a donation's events out one at a time, in order, each to one claimer", async () => {
    const store = await open();
    await sending(store, "gk_a");
    await store.finishAttempt("gk_a", success, [
      event("a1", "gk_a", clock.now),
      event("a2", "gk_a", clock.now),
      event("b1", "gk_b", clock.now),
    ]);
    const first = await store.claimWebhooks("proxy-1", 30_000, 10);
    expect(ids(first)).toEqual(["a1", "b1"]);
    expect(await store.claimWebhooks("proxy-2", 30_000, 10)).toEqual([]);
    expect(await store.webhookDelivered(first[0]!.seq, "proxy-1", 200)).toBe(true);
    const failure = { status: 500, error: "answered 500", nextAt: clock.now + 5_000, giveUp: false };
    expect(await store.webhookFailed(first[1]!.seq, "proxy-1", failure)).toBe(true);
    expect(ids(await store.claimWebhooks("proxy-2", 30_000, 10))).toEqual(["a2"]);
    clock.now += 5_000;
    const again = await store.claimWebhooks("proxy-2", 30_000, 10);
    expect(again.map((row) => [row.event_id, row.attempts])).toEqual([["b1", 2]]);
  });

  it("keeps a donation's later event waiting behind an earlier one retried later, though the later is due first", async () => {
    const store = await open();
    await sending(store, "gk_c");
    await store.finishAttempt("gk_c", success, [
      event("c1", "gk_c", clock.now),
      event("c2", "gk_c", clock.now),
    ]);
    const [c1] = await store.claimWebhooks("proxy-1", 30_000, 10);
    expect(c1?.event_id).toBe("c1");
    // c1 is retried in a minute; c2 has been due all along, earlier in the due index than c1 now.
    const failure = { status: 503, error: "answered 503", nextAt: clock.now + 60_000, giveUp: false };
    expect(await store.webhookFailed(c1!.seq, "proxy-1", failure)).toBe(true);
    clock.now += 30_000;
    expect(await store.claimWebhooks("proxy-2", 30_000, 10)).toEqual([]);
    clock.now += 30_000;
    const retried = await store.claimWebhooks("proxy-2", 30_000, 10);
    expect(ids(retried)).toEqual(["c1"]);
    expect(await store.webhookDelivered(retried[0]!.seq, "proxy-2", 200)).toBe(true);
    expect(ids(await store.claimWebhooks("proxy-2", 30_000, 10))).toEqual(["c2"]);
  });

  it("gives a killed proxy's claimed events to another once its lease runs out; the first cannot finish them", async () => {
    const store = await open();
    await sending(store, "gk_a");
    await store.finishAttempt("gk_a", success, [event("a1", "gk_a", clock.now)]);
    const [claimed] = await store.claimWebhooks("killed", 30_000, 10);
    expect((await store.webhookStats()).oldestPendingAt).toBe(clock.now);
    clock.now += 29_999;
    expect(await store.claimWebhooks("other", 30_000, 10)).toEqual([]);
    clock.now += 1;
    const [taken] = await store.claimWebhooks("other", 30_000, 10);
    expect(taken?.event_id).toBe("a1");
    expect(await store.webhookDelivered(claimed!.seq, "killed", 200)).toBe(false);
    expect(await store.webhookDelivered(taken!.seq, "other", 200)).toBe(true);
    expect(await store.webhookStats()).toMatchObject({ pending: 0, delivered: 1, oldestPendingAt: null });
  });

  it("counts a failing endpoint since its oldest failed event; retry and replay make events due again", async () => {
    const store = await open();
    await sending(store, "gk_a");
    const created = clock.now;
    await store.finishAttempt("gk_a", success, [event("a1", "gk_a", created), event("b1", "gk_b", created)]);
    const [a1, b1] = await store.claimWebhooks("p", 30_000, 10);
    await store.webhookDelivered(b1!.seq, "p", 204);
    await store.webhookFailed(a1!.seq, "p", { status: 503, error: "answered 503", nextAt: 0, giveUp: true });
    expect(await store.webhookStats()).toMatchObject({
      pending: 0,
      delivered: 1,
      dead: 1,
      failing: [{ endpoint: HOOK, since: created, dead: 1 }],
    });
    expect(await store.claimWebhooks("p", 30_000, 10)).toEqual([]);
    expect(await store.requeueWebhooks({}, "retry")).toBe(1);
    expect(ids(await store.claimWebhooks("p", 30_000, 10))).toEqual(["a1"]);
    expect(await store.requeueWebhooks({ since: created + 1 }, "replay")).toBe(0);
    expect(await store.requeueWebhooks({ since: created, state: "delivered" }, "replay")).toBe(1);
    expect(ids(await store.webhooksPage({ state: "pending" }, null, 10))).toEqual(["a1", "b1"]);
  });

  it("holds a Pending gift's events until it is settled: sent if charged (with its transaction), else dropped", async () => {
    const store = await open();
    const unknown = { ...success, state: "unknown" as const, transaction_id: null, upstream_status: null };
    const held = (id: string, ref: string, type = "donation.succeeded"): OutboxEvent => ({
      ...event(id, ref, clock.now),
      eventType: type,
      body: JSON.stringify({ id, type, data: { reference: ref } }),
      held: true,
    });
    for (const ref of ["gk_p", "gk_q", "gk_r"]) await sending(store, ref);
    await store.finishAttempt("gk_p", unknown, [held("p1", "gk_p"), held("p2", "gk_p", "dedication.made")]);
    await store.finishAttempt("gk_q", unknown, [held("q1", "gk_q")]);
    await store.finishAttempt("gk_r", unknown, [held("r1", "gk_r")]);
    expect(await store.claimWebhooks("p", 30_000, 10)).toEqual([]);
    expect(await store.webhookStats()).toMatchObject({ pending: 0, oldestPendingAt: null });
    expect((await store.webhooksPage({ state: "held" }, null, 10)).map((row) => row.event_id)).toEqual([
      "p1",
      "p2",
      "q1",
      "r1",
    ]);

    const charged = { state: "succeeded" as const, transaction_id: "555" };
    expect(await store.resolveUnknown("gk_p", charged, [event("p3", "gk_p", clock.now)])).toBe(true);
    const notCharged = { state: "not_charged" as const, transaction_id: null };
    expect(await store.resolveUnknown("gk_q", notCharged, [event("q2", "gk_q", clock.now)])).toBe(true);
    // A late answer: its own events replace the held ones.
    await store.finishAttempt("gk_r", success, [event("r2", "gk_r", clock.now)]);

    const sent: string[] = [];
    const bodies = new Map<string, string>();
    for (let round = 0; round < 4; round++) {
      for (const row of await store.claimWebhooks("p", 30_000, 10)) {
        sent.push(row.event_id);
        bodies.set(row.event_id, row.body);
        await store.webhookDelivered(row.seq, "p", 200);
      }
    }
    // The held gift is sent with the transaction the reconciler found.
    expect(JSON.parse(bodies.get("p1")!).data.transaction_id).toBe("555");
    // In order per donation: the held gift and its dedication before its settlement.
    expect(sent.filter((id) => id.startsWith("p"))).toEqual(["p1", "p2", "p3"]);
    expect(sent.toSorted()).toEqual(["p1", "p2", "p3", "q2", "r2"]);
    expect(await store.webhooksPage({ state: "held" }, null, 10)).toEqual([]);
  });
});

describe("two PostgreSQL proxies claiming at once", () => {
  it("never hand the same event to both", async () => {
    const url = await testDatabase();
    const open = () =>
      openPostgresStore({ url, retentionH: 24, leaseMs: LEASE_MS, poolMax: 4, connectTimeoutMs: 2000 });
    const [a, b] = [await open(), await open()];
    stores.push(a, b);
    await sending(a, "gk_many");
    const events = Array.from({ length: 200 }, (_, i) => event(`e${i}`, `order-${i}`, Date.now() - 1));
    await a.finishAttempt("gk_many", success, events);
    const seen: string[] = [];
    await Promise.all(
      [a, b, a, b].map(async (store, i) => {
        for (;;) {
          const rows = await store.claimWebhooks(`proxy-${i}`, 30_000, 7);
          if (rows.length === 0) return;
          seen.push(...ids(rows));
        }
      }),
    );
    expect(seen).toHaveLength(200);
    expect(new Set(seen).size).toBe(200);
  });
});
