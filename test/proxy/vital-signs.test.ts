// The proxy's vital signs: GET /metrics behind its token, GET /v1/ready beside /v1/health, the
// level of a 5xx's log line, and a graceful stop on SIGTERM with a donation in flight.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../proxy/app";
import { loadConfig } from "../../proxy/config";
import { createLogger } from "../../proxy/logger";
import { openStore } from "../../proxy/store";
import { createUpstreamClient } from "../../proxy/upstream/client";
import { spawnProxy } from "../helpers/proxy-process";
import { startProxy } from "../helpers/proxy";
import { DEMO, startSandbox, type SandboxHandle } from "../helpers/sandbox";
import {
  CARDS,
  client,
  DONATE_PATH,
  donate,
  donationBody,
  logLines,
  postCard,
  tokenize,
  upstreamCalls,
  useStack,
} from "./support";
import { FUTURE_EXPIRY } from "../helpers/cards";

const METRICS_TOKEN = "metrics-token-for-the-test-0123";
const BEARER = { Authorization: `Bearer ${METRICS_TOKEN}` };

/** One figure of the Prometheus text: `name{labels} value` (labels as written, in order), or undefined. */
function figure(text: string, series: string): number | undefined {
  const line = text.split("\n").find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics", () => {
  const ctx = useStack({
    proxy: {
      env: {
        GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
        UPSTREAM_TIMEOUT_MS: "800",
        GIVEKIT_RECONCILE_INTERVAL_S: "0",
        GIVEKIT_RATE_DONATION_STATUS: "1",
        GIVEKIT_RATE_DONATION_STATUS_PER_MIN: "1",
      },
    },
  });

  it("without the token, or with a wrong one: 401 and not one figure", async () => {
    const tries: Record<string, string>[] = [
      {},
      { Authorization: "Bearer wrong-token-0123456789" },
      { Authorization: METRICS_TOKEN },
    ];
    for (const headers of tries) {
      const reply = await ctx.api.get("/metrics", headers);
      expect(reply.status).toBe(401);
      expect(reply.headers.get("content-type")).toBe("application/problem+json");
      expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer /);
      expect(reply.json).toMatchObject({ code: "unauthorized", status: 401 });
      expect(reply.text).not.toContain("givekit_");
    }
  });

  it("after donations through the sandbox: donations and tokenizations by outcome, the upstream, the store, unknown attempts, refusals, defence mode", async () => {
    const paid = await donate(ctx.api, donationBody(await tokenize(ctx.api)));
    expect(paid.status).toBe(200);
    const declined = await donate(ctx.api, donationBody(await tokenize(ctx.api, CARDS.declined)));
    expect(declined.status).toBe(402);
    // Charged, then no answer: unknown, awaiting reconciliation.
    const lost = await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "777.77" }));
    expect(lost.status).toBe(202);
    const reference = lost.json.donation.reference as string;
    // The status lookups' bucket holds one turn: the second is refused.
    expect((await ctx.api.get(`/v1/donations/${reference}`)).status).toBe(200);
    expect((await ctx.api.get(`/v1/donations/${reference}`)).status).toBe(429);

    const reply = await ctx.api.get("/metrics", BEARER);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = reply.text;
    expect(figure(text, 'givekit_donations_total{outcome="succeeded"}')).toBe(1);
    expect(figure(text, 'givekit_donations_total{outcome="declined"}')).toBe(1);
    expect(figure(text, 'givekit_donations_total{outcome="unknown"}')).toBe(1);
    expect(figure(text, 'givekit_tokenizations_total{outcome="created"}')).toBe(3);
    expect(figure(text, "givekit_unknown_attempts")).toBe(1);
    expect(
      figure(text, 'givekit_rate_limit_refusals_total{route="donation_status",code="rate_limited"}'),
    ).toBe(1);
    expect(figure(text, 'givekit_defence_mode{scope="all"}')).toBe(0);
    expect(figure(text, 'givekit_upstream_request_duration_seconds_count{operation="donate"}')).toBe(3);
    expect(
      figure(text, 'givekit_upstream_request_duration_seconds_count{operation="create_payment_token"}'),
    ).toBe(3);
    expect(figure(text, 'givekit_upstream_errors_total{operation="donate",kind="unknown"}')).toBe(1);
    expect(figure(text, 'givekit_store_operation_duration_seconds_count{operation="startAttempt"}')).toBe(3);
    // Nothing of a donor in it: no card, no token, no address, no amount.
    expect(text).not.toContain(CARDS.ok);
    expect(text).not.toContain("127.0.0.1");
    expect(text).not.toContain("777.77");
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(3);
  });

  it("a donation that succeeds reads nothing more from the store for the gauges; one that may be unknown does", async () => {
    const listReads = async () =>
      figure(
        (await ctx.api.get("/metrics", BEARER)).text,
        'givekit_store_operation_duration_seconds_count{operation="listAttempts"}',
      ) ?? 0;
    const before = await listReads();
    for (let i = 0; i < 3; i++)
      expect((await donate(ctx.api, donationBody(await tokenize(ctx.api)))).status).toBe(200);
    expect(await listReads()).toBe(before);
    const lost = await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "777.77" }));
    expect(lost.status).toBe(202);
    await expect.poll(listReads).toBeGreaterThan(before);
    const unknown = async () =>
      figure((await ctx.api.get("/metrics", BEARER)).text, "givekit_unknown_attempts") ?? 0;
    await expect.poll(unknown).toBeGreaterThanOrEqual(1);
  });
});

describe("GET /metrics with no GIVEKIT_METRICS_TOKEN", () => {
  const ctx = useStack();
  it("does not exist: 404, whatever the Authorization", async () => {
    expect((await ctx.api.get("/metrics")).status).toBe(404);
    expect((await ctx.api.get("/metrics", BEARER)).status).toBe(404);
  });
});

describe("GET /v1/ready", () => {
  const ctx = useStack();

  it("store and upstream reachable: 200; /v1/health stays as it was", async () => {
    const ready = await ctx.api.get("/v1/ready");
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: "ready", store: true, upstream: true });
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect((await ctx.api.get("/v1/health")).json).toEqual({ status: "ok", store: "sqlite" });
  });

  it("an upstream nobody answers at: 200 degraded naming it (every proxy shares it); liveness is still 200", async () => {
    const proxy = await startProxy({ upstreamUrl: "http://127.0.0.1:9" });
    try {
      const api = client(proxy.url);
      const ready = await api.get("/v1/ready");
      expect(ready.status).toBe(200);
      expect(ready.json).toEqual({ status: "degraded", store: true, upstream: false });
      expect((await api.get("/v1/health")).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it("a proxy asked to stop: 503 stopping (and a store that does not answer: 503)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "givekit-ready-"));
    const config = loadConfig({
      UPSTREAM_BASE_URL: ctx.sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: dataDir,
    });
    const store = await openStore(config);
    const upstream = createUpstreamClient(config.upstream);
    try {
      const lifecycle = { draining: false };
      const deps = { config, logger: createLogger("silent"), store, signingSecret: "s".repeat(32), upstream };
      const app = createApp({ ...deps, lifecycle });
      expect((await app.request("/v1/ready")).status).toBe(200);
      lifecycle.draining = true;
      const stopping = await app.request("/v1/ready");
      expect(stopping.status).toBe(503);
      expect(await stopping.json()).toEqual({ status: "stopping" });

      const down = createApp({ ...deps, store: { ...store, healthy: async () => false } });
      const notReady = await down.request("/v1/ready");
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toEqual({ status: "not_ready", store: false, upstream: true });
    } finally {
      upstream.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("log levels", () => {
  it("the upstream out of reach is logged at warn; a 4xx and a 2xx at info", async () => {
    // An upstream nobody answers at: a card cannot be tokenized, 503 upstream_unavailable.
    const proxy = await startProxy({ upstreamUrl: "http://127.0.0.1:9" });
    try {
      const api = client(proxy.url);
      const failed = await postCard(api, {
        card_number: CARDS.ok,
        cvv: "123",
        expiration_date: FUTURE_EXPIRY,
      });
      expect(failed.status).toBe(503);
      expect((await api.get("/v1/campaigns/71777/NOSUCH")).status).toBe(404);
      const lines = logLines(proxy).filter((line) => line.msg === "request");
      const level = (path: string, status: number) =>
        lines.find((line) => line.path === path && line.status === status)?.level;
      expect(level("/v1/payment-tokens", 503)).toBe(40);
      expect(level("/v1/campaigns/71777/NOSUCH", 404)).toBe(30);
      expect(level("/v1/form-sessions", 201)).toBe(30);
      expect(logLines(proxy).filter((line) => line.msg === "proxy listening")).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

describe("stopping on SIGTERM", () => {
  let sandbox: SandboxHandle;
  let dataDir: string;
  beforeAll(async () => {
    sandbox = await startSandbox();
    dataDir = mkdtempSync(join(tmpdir(), "givekit-stop-"));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "a donation in flight finishes (Pending at the upstream timeout), new connections are refused, exit 0, a line at start and at stop",
    { timeout: 30_000 },
    async () => {
      const proxy = await spawnProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        GIVEKIT_DATA_DIR: dataDir,
        UPSTREAM_TIMEOUT_MS: "1500",
      });
      const api = client(proxy.url);
      const token = await tokenize(api);
      // 999.99: the sandbox never answers and charges nothing.
      const slow = donate(api, donationBody(token, { amount: "999.99" }));
      await expect.poll(() => upstreamCalls(sandbox, DONATE_PATH), { interval: 20 }).toBe(1);
      const stopAsked = performance.now();
      proxy.child.kill("SIGTERM");
      await expect
        .poll(() =>
          fetch(`${proxy.url}/v1/health`).then(
            () => "open",
            () => "refused",
          ),
        )
        .toBe("refused");
      const answer = await slow;
      expect(answer.status).toBe(202);
      expect(answer.json.donation).toMatchObject({ status: "Pending" });
      expect(await proxy.exited).toBe(0);
      // It waited for the donation, not the longest grace.
      expect(performance.now() - stopAsked).toBeLessThan(5000);
      const messages = proxy
        .output()
        .stdout.trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const named = (msg: string) => messages.filter((line) => line.msg === msg);
      expect(named("proxy listening")).toHaveLength(1);
      expect(named("proxy stopping")).toEqual([expect.objectContaining({ signal: "SIGTERM", level: 30 })]);
      expect(named("proxy stopped")).toHaveLength(1);
      expect(messages.at(-1)?.msg).toBe("proxy stopped");
    },
  );

  it("a second signal does not wait: what is in flight is cut off, exit 1", { timeout: 30_000 }, async () => {
    const proxy = await spawnProxy({
      UPSTREAM_BASE_URL: sandbox.url,
      GIVEKIT_DATA_DIR: join(dataDir, "second"),
      UPSTREAM_TIMEOUT_MS: "15000",
    });
    const api = client(proxy.url);
    const before = await upstreamCalls(sandbox, DONATE_PATH);
    const slow = donate(api, donationBody(await tokenize(api), { amount: "999.99" })).then(
      (reply) => reply.status,
      () => "cut off",
    );
    await expect.poll(() => upstreamCalls(sandbox, DONATE_PATH), { interval: 20 }).toBe(before + 1);
    const stopAsked = performance.now();
    proxy.child.kill("SIGTERM");
    // The log is written in buffered chunks, at least every second.
    await expect.poll(() => proxy.output().stdout.includes("proxy stopping"), { timeout: 5000 }).toBe(true);
    proxy.child.kill("SIGTERM");
    expect(await proxy.exited).toBe(1);
    expect(await slow).toBe("cut off");
    expect(performance.now() - stopAsked).toBeLessThan(5000);
  });
});
