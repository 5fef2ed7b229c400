// Two proxy programs on one PostgreSQL in front of the sandbox (with latency) act as one:
// one charge per key whichever proxy a retry reaches, shared limits, a killed proxy's donation
// never sent twice, and a database lost and found again.
import { POSTGRES_SCHEMA_VERSION } from "../../proxy/store/postgres/schema";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, testDatabase } from "../helpers/postgres";
import { spawnProxy, type ProxyProcess } from "../helpers/proxy-process";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { startRelay, type Relay } from "./relay";
import {
  client,
  collected,
  CARDS,
  donate,
  donationBody,
  tokenize,
  upstreamCalls,
  CONSENT_TEXT,
  DONATE_PATH,
  type Client,
  postCard,
} from "./support";
import { FUTURE_EXPIRY } from "../helpers/cards";

const SECRET = randomBytes(32).toString("hex");
/**
 * The sandbox's added latency: long enough that a test can act (kill a proxy, cut the database)
 * while a donation is at the upstream, even on a loaded machine; shorter than UPSTREAM_TIMEOUT_MS.
 */
const LATENCY_MS = 600;
/** Short, so a killed proxy's claim is released within the test; longer than both timeouts. */
const LEASE_S = "5";

let sandbox: SandboxHandle;
let database: string;
let relay: Relay;
let a: ProxyProcess;
let b: ProxyProcess;

/** Each test is its own client (by X-Forwarded-For), so limits of one never touch another. */
let clientNumber = 10;
function clients(): { a: Client; b: Client; ip: string } {
  const ip = `203.0.113.${clientNumber++}`;
  const withIp = (base: Client): Client => ({
    get: (path, headers = {}) => base.get(path, { "X-Forwarded-For": ip, ...headers }),
    post: (path, body, options = {}) =>
      base.post(path, body, { ...options, headers: { "X-Forwarded-For": ip, ...options.headers } }),
  });
  return { a: withIp(client(a.url)), b: withIp(client(b.url)), ip };
}

function env(): Record<string, string> {
  const url = new URL(database);
  // Through the relay, so a test can take the database away and bring it back.
  url.port = String(relay.port);
  return {
    UPSTREAM_BASE_URL: sandbox.url,
    DATABASE_URL: url.toString(),
    GIVEKIT_SIGNING_SECRET: SECRET,
    GIVEKIT_TRUST_PROXY: "true",
    GIVEKIT_RATE_DONATIONS: "1000",
    // A bucket of 10 that does not refill within a test: its count is exact.
    GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN: "1",
    // The bucket is under test, not the breaker's budget of tokenizations not followed by a
    // charge, whose half (4) would have this client's cards challenged first.
    GIVEKIT_BREAKER_CLIENT_TOKENS: "100",
    GIVEKIT_DECLINE_LIMIT: "2",
    UPSTREAM_CONNECT_TIMEOUT_MS: "500",
    UPSTREAM_TIMEOUT_MS: "1500",
    GIVEKIT_CLAIM_LEASE_S: LEASE_S,
    GIVEKIT_DB_POOL_MAX: "20",
    LOG_LEVEL: "warn",
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ latencyMs: LATENCY_MS });
  database = await testDatabase();
  relay = await startRelay(`http://127.0.0.1:${new URL(database).port}`);
  // Both at once on an empty database: the schema is made once, under the advisory lock.
  [a, b] = await Promise.all([spawnProxy(env()), spawnProxy(env())]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await relay?.close();
  await sandbox?.close();
});

describe("two proxies on one PostgreSQL", () => {
  it("both started at once on an empty database, which got one schema", async () => {
    expect(await sql(database, "SELECT version FROM givekit_schema")).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
    for (const proxy of [a, b]) {
      const health = await fetch(`${proxy.url}/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok", store: "postgres" });
    }
  });

  it("200 concurrent submits of one key over both → exactly one charge; every other answer a replay or 409", async () => {
    const { a: viaA, b: viaB } = clients();
    const token = await tokenize(viaA);
    const body = donationBody(token, { amount: "42.00" });
    const key = randomUUID();
    const calls = await upstreamCalls(sandbox, DONATE_PATH);
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => donate(i % 2 === 0 ? viaA : viaB, body, key)),
    );

    const first = replies.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") !== "true");
    expect(first).toHaveLength(1);
    const ok = replies.filter((r) => r.status === 200);
    const busy = replies.filter((r) => r.status !== 200);
    expect(ok.length + busy.length).toBe(200);
    expect(new Set(ok.map((r) => r.text))).toEqual(new Set([first[0]!.text]));
    expect(
      new Set(busy.map((r) => `${r.status} ${r.json.code} ${Number(r.headers.get("retry-after")) > 0}`)),
    ).toEqual(busy.length > 0 ? new Set(["409 request_in_progress true"]) : new Set());
    expect(await upstreamCalls(sandbox, DONATE_PATH)).toBe(calls + 1);
    const charged = (await collected(sandbox)).filter((row) => row.amount === "42.00");
    expect(charged).toHaveLength(1);
    expect(String(charged[0]!.transaction_id)).toBe(String(first[0]!.json.donation.transaction_id));
  });

  it("a key finished on one replays on the other with the same transaction id; another body there → 422", async () => {
    const { a: viaA, b: viaB } = clients();
    const token = await tokenize(viaA);
    const key = randomUUID();
    const done = await donate(viaA, donationBody(token, { amount: "43.00" }), key);
    expect(done.status).toBe(200);
    const replay = await donate(viaB, donationBody(token, { amount: "43.00" }), key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json.donation.transaction_id).toBe(done.json.donation.transaction_id);
    const other = await donate(viaB, donationBody(token, { amount: "44.00" }), key);
    expect(other.status).toBe(422);
    expect(other.json.code).toBe("idempotency_key_reused");
    expect((await collected(sandbox)).filter((row) => ["43.00", "44.00"].includes(row.amount))).toHaveLength(
      1,
    );
  });

  it("one client's limit is counted across both: 10 card tokenizations in all, alternating", async () => {
    const { a: viaA, b: viaB } = clients();
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) {
      const reply = await postCard(i % 2 === 0 ? viaA : viaB, {
        card_number: "4242424242424242",
        cvv: "123",
        expiration_date: FUTURE_EXPIRY,
      });
      statuses.push(reply.status);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429, 429]);
  });

  it("declines are shared: declines on one proxy have the client's cards challenged on the other", async () => {
    const { a: viaA, b: viaB } = clients();
    for (let i = 0; i < 2; i++) {
      const token = await tokenize(viaA, CARDS.declined);
      expect((await donate(viaA, donationBody(token, { amount: "47.00" }))).status).toBe(402);
    }
    const refused = await postCard(viaB, {
      card_number: CARDS.ok,
      cvv: "123",
      expiration_date: FUTURE_EXPIRY,
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: "challenge_required", challenge: { provider: "pow" } });
  });

  it("the database lost → 503 store_unavailable and nothing sent; liveness 200, readiness degraded; back → donations work", async () => {
    const { a: viaA, b: viaB } = clients();
    const token = await tokenize(viaA);
    const calls = await upstreamCalls(sandbox, DONATE_PATH);
    await relay.close();
    try {
      for (const via of [viaA, viaB]) {
        const reply = await donate(via, donationBody(token, { amount: "45.00" }));
        expect(reply.status).toBe(503);
        expect(reply.json.code).toBe("store_unavailable");
        expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
        // Every proxy shares the database: none restarts, none leaves the pool (proxy/GUIDE.md, probes).
        expect((await via.get("/v1/health")).status).toBe(200);
        const ready = await via.get("/v1/ready");
        expect(ready.status).toBe(200);
        expect(ready.json).toMatchObject({ status: "degraded", store: false });
      }
      expect(await upstreamCalls(sandbox, DONATE_PATH)).toBe(calls);
      expect((await collected(sandbox)).filter((row) => row.amount === "45.00")).toHaveLength(0);
      // An opt-in has no consent record to keep: nobody is subscribed.
      const optIn = await viaB.post("/v1/subscriptions", {
        mobilenumber: "(555) 010-4545",
        list: "Hope Alerts",
        consent: true,
        consent_text: CONSENT_TEXT,
      });
      expect(optIn.status).toBe(503);
      expect(optIn.json.code).toBe("store_unavailable");
      expect((await sandbox.subscriptions()).filter((row) => row.mobilenumber === "5550104545")).toEqual([]);
    } finally {
      await relay.reopen();
    }
    // Recovered by itself: no restart.
    const key = randomUUID();
    const reply = await donate(viaB, donationBody(token, { amount: "45.00" }), key);
    expect(reply.status).toBe(200);
    expect(
      (await donate(viaA, donationBody(token, { amount: "45.00" }), key)).headers.get("idempotent-replayed"),
    ).toBe("true");
    expect((await viaA.get("/v1/health")).status).toBe(200);
    expect((await collected(sandbox)).filter((row) => row.amount === "45.00")).toHaveLength(1);
  });

  it("the database lost while a donation is at the upstream → 202 Pending, as every replay says after the lease; one charge", async () => {
    const { a: viaA, b: viaB } = clients();
    const token = await tokenize(viaA);
    const key = randomUUID();
    const body = donationBody(token, { amount: "46.00" });
    const calls = await upstreamCalls(sandbox, DONATE_PATH);
    const first = donate(viaA, body, key);
    // The attempt is recorded and the donation is at the (slow) upstream: the database goes.
    await expect.poll(() => upstreamCalls(sandbox, DONATE_PATH)).toBe(calls + 1);
    await relay.close();
    let reply;
    try {
      reply = await first;
    } finally {
      await relay.reopen();
    }
    expect(reply.status).toBe(202);
    expect(reply.json).toEqual({
      donation: { status: "Pending", reference: expect.stringMatching(/^gk_[0-9a-f]{20}$/) },
    });
    // Charged, though the proxy could not record it: the donor was told "pending", not "failed".
    expect((await collected(sandbox)).filter((row) => row.amount === "46.00")).toHaveLength(1);

    expect((await donate(viaB, body, key)).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, Number(LEASE_S) * 1000 + 200));
    const replay = await donate(viaB, body, key);
    expect(replay.status).toBe(202);
    expect(replay.json).toEqual(reply.json);
    expect(await upstreamCalls(sandbox, DONATE_PATH)).toBe(calls + 1);
  });

  it("a proxy killed while its donation is at the upstream: the other answers 409, then 202 Pending, and never sends it again", async () => {
    const { a: viaA, b: viaB } = clients();
    const token = await tokenize(viaA);
    const key = randomUUID();
    // 777.77: the sandbox records the charge and never answers; the proxy is killed meanwhile.
    const body = donationBody(token, { amount: "777.77" });
    void donate(viaA, body, key).catch(() => undefined);
    await expect.poll(() => upstreamCalls(sandbox, DONATE_PATH)).toBeGreaterThan(0);
    await expect
      .poll(
        async () =>
          (await sql(database, "SELECT state FROM donation_attempts WHERE idempotency_key = $1", [key]))
            .length,
      )
      .toBe(1);
    const calls = await upstreamCalls(sandbox, DONATE_PATH);
    await a.kill();

    const during = await donate(viaB, body, key);
    expect(during.status).toBe(409);
    expect(during.json.code).toBe("request_in_progress");

    const [{ reference }] = (await sql(
      database,
      "SELECT reference FROM donation_attempts WHERE idempotency_key = $1",
      [key],
    )) as [{ reference: string }];
    await new Promise((resolve) => setTimeout(resolve, Number(LEASE_S) * 1000 + 200));
    const after = await donate(viaB, body, key);
    expect(after.status).toBe(202);
    expect(after.json).toEqual({ donation: { status: "Pending", reference } });
    expect(after.headers.get("idempotent-replayed")).toBe("true");
    expect(
      (await sql(database, "SELECT state FROM donation_attempts WHERE reference = $1", [reference]))[0],
    ).toEqual({
      state: "unknown",
    });
    expect(await upstreamCalls(sandbox, DONATE_PATH)).toBe(calls);
    expect((await collected(sandbox)).filter((row) => row.amount === "777.77")).toHaveLength(1);
  });
});
