// The sandbox's fault triggers, a refused connection, a connect that times out and a second
// proxy on the same data directory: honest answers, the right store state, and never a
// second charge.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirInUseError } from "../../proxy/store";
import { startProxy, type ProxyHandle } from "../helpers/proxy";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { startStalledListener, type StalledListener } from "../helpers/stalled-listener";
import { startRelay, type Relay } from "./relay";
import {
  client,
  collected,
  donate,
  donationBody,
  readStore,
  tokenize,
  upstreamCalls,
  useStack,
  DONATE_PATH,
  postCard,
} from "./support";
import { FUTURE_EXPIRY } from "../helpers/cards";

/** Short, so the never-answering fault ends quickly. */
const TIMEOUT_MS = "800";
/** Short, so a connect into the stalled listener is given up quickly. */
const CONNECT_TIMEOUT_MS = 300;

describe("unknown outcomes", () => {
  const ctx = useStack({ proxy: { env: { UPSTREAM_TIMEOUT_MS: TIMEOUT_MS } } });

  it("666.66 (HTTP 500, no donation object) → 202 Pending, recorded unknown; the proxy cannot know nothing was charged", async () => {
    const token = await tokenize(ctx.api);
    const key = randomUUID();
    const reply = await donate(ctx.api, donationBody(token, { amount: "666.66" }), key);
    expect(reply.status).toBe(202);
    expect(reply.json).toEqual({
      donation: { status: "Pending", reference: expect.stringMatching(/^gk_[0-9a-f]{20}$/) },
    });
    const [attempt] = readStore(ctx.proxy.dataDir).attempts;
    expect(attempt).toMatchObject({
      reference: reply.json.donation.reference,
      state: "unknown",
      upstream_status: 500,
    });
    expect(await ctx.sandbox.transactions()).toEqual([]);

    const replay = await donate(ctx.api, donationBody(token, { amount: "666.66" }), key);
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json.donation.reference).toBe(reply.json.donation.reference);
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(1);
  });

  it("777.77 (charged, never answered) → 202 Pending after the timeout, recorded unknown; a replay charges nothing more", async () => {
    const token = await tokenize(ctx.api);
    const key = randomUUID();
    const started = Date.now();
    const reply = await donate(ctx.api, donationBody(token, { amount: "777.77" }), key);
    expect(Date.now() - started).toBeGreaterThanOrEqual(Number(TIMEOUT_MS) - 50);
    expect(reply.status).toBe(202);
    expect(reply.json.donation.status).toBe("Pending");
    const [attempt] = readStore(ctx.proxy.dataDir).attempts;
    expect(attempt).toMatchObject({ state: "unknown", upstream_status: null, amount: "777.77" });
    // The sandbox did charge: exactly why the proxy must never send it again.
    expect(await collected(ctx.sandbox)).toHaveLength(1);

    for (let i = 0; i < 3; i++) {
      const replay = await donate(ctx.api, donationBody(token, { amount: "777.77" }), key);
      expect(replay.status).toBe(202);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.json.donation.reference).toBe(reply.json.donation.reference);
    }
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(1);
    expect(await collected(ctx.sandbox)).toHaveLength(1);
  });

  it("888.88 (connection destroyed) → 202 Pending, recorded unknown; nothing charged, but the proxy cannot know that", async () => {
    const token = await tokenize(ctx.api);
    const key = randomUUID();
    const reply = await donate(ctx.api, donationBody(token, { amount: "888.88" }), key);
    expect(reply.status).toBe(202);
    expect(reply.json.donation.status).toBe("Pending");
    expect(readStore(ctx.proxy.dataDir).attempts[0]).toMatchObject({ state: "unknown" });
    expect(await ctx.sandbox.transactions()).toEqual([]);
    expect((await donate(ctx.api, donationBody(token, { amount: "888.88" }), key)).status).toBe(202);
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(1);
  });
});

describe("nothing sent: a refused connection, or a connect that times out", () => {
  let sandbox: SandboxHandle;
  let relay: Relay;
  let stalled: StalledListener | undefined;
  let proxy: ProxyHandle;
  afterEach(async () => {
    await proxy.close();
    await stalled?.close();
    stalled = undefined;
    await relay.close().catch(() => undefined);
    await sandbox.close();
  });

  it("a refused connection → 503 upstream_unavailable, recorded not_sent; the same key then works and charges once", async () => {
    sandbox = await startSandbox();
    relay = await startRelay(sandbox.url);
    proxy = await startProxy({ upstreamUrl: relay.url });
    const api = client(proxy.url);
    const token = await tokenize(api);

    await relay.close();
    const key = randomUUID();
    const body = donationBody(token, { amount: "42.00" });
    const refused = await donate(api, body, key);
    expect(refused.status).toBe(503);
    expect(refused.json.code).toBe("upstream_unavailable");
    expect(readStore(proxy.dataDir).attempts).toMatchObject([{ state: "not_sent" }]);
    expect(await upstreamCalls(sandbox, DONATE_PATH)).toBe(0);

    await relay.reopen();
    const retried = await donate(api, body, key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect((await collected(sandbox)).map((row) => row.amount)).toEqual(["42.00"]);
    expect(readStore(proxy.dataDir).attempts.map((a) => a.state)).toEqual(["not_sent", "succeeded"]);
  });

  it("an upstream that was never there → 503 for every POST, and the process lives", async () => {
    sandbox = await startSandbox();
    relay = await startRelay(sandbox.url);
    await relay.close();
    proxy = await startProxy({ upstreamUrl: relay.url });
    const api = client(proxy.url);
    const tokenReply = await postCard(api, {
      card_number: "4242424242424242",
      cvv: "317",
      expiration_date: FUTURE_EXPIRY,
    });
    expect(tokenReply.status).toBe(503);
    expect(tokenReply.json.code).toBe("upstream_unavailable");
    const donation = await donate(api, donationBody("tok_x"));
    expect(donation.status).toBe(503);
    expect((await api.get("/v1/health")).status).toBe(200);
  });

  it("a connect that times out → 503 upstream_unavailable after UPSTREAM_CONNECT_TIMEOUT_MS, recorded not_sent; the same key then charges once", async () => {
    sandbox = await startSandbox();
    relay = await startRelay(sandbox.url);
    proxy = await startProxy({
      upstreamUrl: relay.url,
      env: { UPSTREAM_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS), UPSTREAM_TIMEOUT_MS: "20000" },
    });
    const api = client(proxy.url);
    const token = await tokenize(api);

    // The upstream's port now takes no new connection: a connect hangs until the proxy gives up.
    await relay.close();
    stalled = await startStalledListener(relay.port);
    const key = randomUUID();
    const body = donationBody(token, { amount: "43.00" });
    const started = performance.now();
    const stuck = await donate(api, body, key);
    const elapsed = performance.now() - started;
    expect(stuck.status).toBe(503);
    expect(stuck.json.code).toBe("upstream_unavailable");
    expect(elapsed).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 10);
    expect(elapsed).toBeLessThan(10_000);
    expect(readStore(proxy.dataDir).attempts).toMatchObject([{ state: "not_sent", amount: "43.00" }]);
    expect(await upstreamCalls(sandbox, DONATE_PATH)).toBe(0);

    await stalled.close();
    stalled = undefined;
    await relay.reopen();
    const retried = await donate(api, body, key);
    expect(retried.status).toBe(200);
    expect((await collected(sandbox)).map((row) => row.amount)).toEqual(["43.00"]);
    expect(readStore(proxy.dataDir).attempts.map((a) => a.state)).toEqual(["not_sent", "succeeded"]);
  });
});

describe("a second proxy on the same data directory", () => {
  const ctx = useStack({ proxy: { env: { UPSTREAM_TIMEOUT_MS: "1500" } } });

  it("is refused while a donation is in flight, and that donation is still charged once", async () => {
    const token = await tokenize(ctx.api);
    const key = randomUUID();
    const body = donationBody(token, { amount: "777.77" });
    const inFlight = donate(ctx.api, body, key);
    await expect.poll(() => upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(1);

    // Had it started, it would have taken that attempt for one a crash interrupted (unknown).
    const second = startProxy({ upstreamUrl: ctx.sandbox.url, env: { GIVEKIT_DATA_DIR: ctx.proxy.dataDir } });
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    expect(readStore(ctx.proxy.dataDir).attempts).toMatchObject([{ state: "sending", amount: "777.77" }]);
    expect((await donate(ctx.api, body, key)).json.code).toBe("request_in_progress");

    const reply = await inFlight;
    expect(reply.status).toBe(202);
    const replay = await donate(ctx.api, body, key);
    expect(replay.json.donation.reference).toBe(reply.json.donation.reference);
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(1);
    expect(await collected(ctx.sandbox)).toHaveLength(1);
  });

  it("one that could not start (its port taken) leaves the directory to the next", async () => {
    const dir = mkdtempSync(join(tmpdir(), "givekit-shared-"));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      const blocked = startProxy({
        upstreamUrl: ctx.sandbox.url,
        env: { GIVEKIT_DATA_DIR: dir, PORT: port },
      });
      await expect(blocked).rejects.toMatchObject({ code: "EADDRINUSE" });

      const next = await startProxy({ upstreamUrl: ctx.sandbox.url, env: { GIVEKIT_DATA_DIR: dir } });
      expect((await client(next.url).get("/v1/health")).status).toBe(200);
      await next.close();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
