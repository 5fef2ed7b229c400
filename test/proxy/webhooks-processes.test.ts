// Webhooks across proxy PROGRAMS: one killed (SIGKILL) with deliveries in flight and started
// again loses none; two on one PostgreSQL deliver each event once. Every gift is counted in the
// sandbox's own report, and every event is counted at the receiver and in the store's outbox.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "../../sqlite/open";
import { sql, testDatabase } from "../helpers/postgres";
import { spawnProxy, type ProxyProcess } from "../helpers/proxy-process";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { client, collected, donate, donationBody, tokenize } from "./support";
import { guideVerifier, startReceiver, webhooksEnv, type Receiver } from "./webhooks-receiver";

const SECRET = "whsec-processes-0123456789abcdef";
const GIFTS = 12;

let sandbox: SandboxHandle;
let receiver: Receiver;
beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await sandbox?.close();
});

function env(extra: Record<string, string>): Record<string, string> {
  return {
    UPSTREAM_BASE_URL: sandbox.url,
    GIVEKIT_WEBHOOKS: webhooksEnv({ url: receiver.url, secret: SECRET, events: ["donation.succeeded"] }),
    GIVEKIT_WEBHOOK_BACKOFF_MS: "200",
    GIVEKIT_RATE_DONATIONS: "1000",
    GIVEKIT_RATE_PAYMENT_TOKENS: "1000",
    GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN: "6000",
    GIVEKIT_RATE_DONATIONS_PER_MIN: "6000",
    GIVEKIT_FORM_SESSION_BULK: "1000",
    GIVEKIT_RECONCILE_INTERVAL_S: "0",
    LOG_LEVEL: "warn",
    ...extra,
  };
}

/** `count` gifts of distinct amounts through the proxies in turn; their references' amounts. */
async function gifts(proxies: ProxyProcess[], count: number, base: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const api = client(proxies[i % proxies.length]!.url);
    const reply = await donate(api, donationBody(await tokenize(api), { amount: `${base + i}.00` }));
    expect(reply.status).toBe(200);
  }
}

/** The distinct event ids the receiver accepted, with how often each was accepted. */
function acceptedIds(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of receiver.accepted()) counts.set(event.id, (counts.get(event.id) ?? 0) + 1);
  return counts;
}

describe("a proxy killed with deliveries in flight, then started again", () => {
  it("delivers every event at least once after the restart; none is lost", async () => {
    receiver.deliveries.length = 0;
    // The receiver holds every delivery open: all of them are in flight when the proxy dies.
    receiver.answer = () => "hang";
    const dataDir = mkdtempSync(join(tmpdir(), "givekit-webhooks-kill-"));
    const first = await spawnProxy(env({ GIVEKIT_DATA_DIR: dataDir }));
    await gifts([first], GIFTS, 100);
    await receiver.until(() => receiver.deliveries.length === GIFTS);
    await first.kill();
    expect(receiver.accepted()).toHaveLength(0);

    receiver.answer = () => 200;
    const second = await spawnProxy(env({ GIVEKIT_DATA_DIR: dataDir }));
    try {
      await receiver.until(() => acceptedIds().size === GIFTS);
    } finally {
      await second.stop();
    }
    const db = openSqlite(join(dataDir, "givekit.db"), { readonly: true, fileMustExist: true });
    const rows = db.prepare("SELECT state, attempts FROM webhook_outbox").all() as {
      state: string;
      attempts: number;
    }[];
    db.close();
    const charged = await collected(sandbox);
    const received = new Set(receiver.accepted().map((event) => event.data.transaction_id));
    // Every gift the sandbox charged was told of; every event of the outbox was delivered.
    expect(charged).toHaveLength(GIFTS);
    expect(charged.filter((row) => !received.has(row.transaction_id))).toEqual([]);
    expect(rows).toHaveLength(GIFTS);
    expect(rows.filter((row) => row.state !== "delivered")).toEqual([]);
    const verify = await guideVerifier();
    for (const delivery of receiver.deliveries) {
      expect(verify(SECRET, delivery.body, delivery.headers["givekit-signature"] as string)).toBe(true);
    }
    // The figures of the README: 12 events, 24 tries (each once before the kill, once after), lost: 0.
    expect(receiver.deliveries).toHaveLength(2 * GIFTS);
    expect(GIFTS - acceptedIds().size).toBe(0);
  }, 90_000);
});

describe("two proxies on one PostgreSQL", () => {
  let proxies: ProxyProcess[] = [];
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
  });

  it("deliver each event once", async () => {
    receiver.deliveries.length = 0;
    receiver.answer = () => ({ status: 200, delayMs: 30 });
    const database = await testDatabase();
    const shared = env({ DATABASE_URL: database, GIVEKIT_SIGNING_SECRET: randomBytes(32).toString("hex") });
    proxies = await Promise.all([spawnProxy(shared), spawnProxy(shared)]);
    const before = (await collected(sandbox)).length;
    await gifts(proxies, 2 * GIFTS, 200);
    expect((await collected(sandbox)).length - before).toBe(2 * GIFTS);
    await receiver.until(() => acceptedIds().size === 2 * GIFTS);
    // Time for a second delivery of anything, were one to come.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect([...acceptedIds().values()].filter((times) => times !== 1)).toEqual([]);
    expect(receiver.deliveries).toHaveLength(2 * GIFTS);
    const rows = await sql<{ state: string; n: string }>(
      database,
      "SELECT state, COUNT(*) AS n FROM webhook_outbox GROUP BY state",
    );
    expect(rows).toEqual([{ state: "delivered", n: String(2 * GIFTS) }]);
  }, 90_000);
});

describe("a proxy stopped (SIGTERM) with deliveries in flight, beside another on PostgreSQL", () => {
  let proxies: ProxyProcess[] = [];
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
  });

  it("hands its events to the other at once, not when their leases run out", async () => {
    receiver.deliveries.length = 0;
    receiver.answer = () => "hang";
    const database = await testDatabase();
    const shared = env({ DATABASE_URL: database, GIVEKIT_SIGNING_SECRET: randomBytes(32).toString("hex") });
    const first = await spawnProxy(shared);
    proxies = [first];
    await gifts([first], GIFTS, 300);
    await receiver.until(() => receiver.deliveries.length === GIFTS);
    const second = await spawnProxy(shared);
    proxies.push(second);
    receiver.answer = () => 200;
    const stoppedAt = Date.now();
    await first.stop();
    // Well within the 60-second lease a killed proxy's events wait for.
    await receiver.until(() => acceptedIds().size === GIFTS, 15_000);
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    await expect
      .poll(() => sql(database, "SELECT state, COUNT(*) AS n FROM webhook_outbox GROUP BY state"))
      .toEqual([{ state: "delivered", n: String(GIFTS) }]);
  }, 90_000);
});
