// Each outcome of upstream.donate() and what the attempt makes of it, in one proxy app on a real
// SQLite store in front of a scripted upstream over real HTTP: the answer, the attempt's record,
// what reached the upstream, and the Idempotency-Key's state afterwards (replayed, or free again).
// A throw from donate() decides nothing: it is an outcome nobody can know.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../proxy/app";
import { loadConfig, type ProxyConfig } from "../../proxy/config";
import { createLogger } from "../../proxy/logger";
import { createRateLimits } from "../../proxy/middleware/rate-limit";
import { ProblemError } from "../../proxy/problem";
import { openStore, type Store } from "../../proxy/store";
import { createUpstreamClient, type UpstreamClient } from "../../proxy/upstream/client";
import { startFakeUpstream, type FakeRequest, type FakeUpstream } from "../helpers/fake-upstream";

const DONATE = "/api/v2/donations/donate";
const LOGIN = "/api/v2/users/login_with_auth_token";
/** The client's address in an app asked without a socket. */
const CLIENT = "unknown";

/** The scripted upstream's donate answers, by the amount asked: status and body. */
const ANSWERS: Record<string, [number, string]> = {
  "25.00": [200, '{"donation":{"status":"Success","message":"Thank you","transaction_id":4242}}'],
  "26.00": [402, '{"donation":{"status":"Error","message":"Do not honor"}}'],
  "27.00": [200, '{"donation":{"status":"Fatal","message":"gateway down"}}'],
  "28.00": [500, ""],
  "29.00": [422, '{"error":{"code":"unprocessable","message":"Keyword closed"}}'],
};

let dataDir: string;
let config: ProxyConfig;
let store: Store;
let fake: FakeUpstream;
/** Every request the scripted upstream received. */
let received: FakeRequest[] = [];
/** Whether the scripted upstream refuses every login. */
let refuseLogin = false;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "givekit-outcomes-"));
  fake = await startFakeUpstream((request, res) => {
    received.push(request);
    if (request.path === LOGIN) {
      if (refuseLogin) res.writeHead(401).end('{"error":{"code":"unauthorized","message":"no"}}');
      else res.writeHead(200).end('{"user":{"session_token":"s1","id":1}}');
      return;
    }
    const [status, body] = ANSWERS[request.body.amount as string] ?? [500, ""];
    res.writeHead(status, { "Content-Type": "application/json" }).end(body);
  });
  config = loadConfig({
    UPSTREAM_BASE_URL: fake.url,
    UPSTREAM_PRIVATE_TOKEN: "p",
    UPSTREAM_PUBLIC_TOKEN: "q",
    GIVEKIT_DATA_DIR: dataDir,
  });
  store = await openStore(config);
});

afterAll(async () => {
  await store.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  received = [];
  refuseLogin = false;
});

/** A proxy app on the shared store, in front of `upstream` (the scripted one by default). */
function proxyApp(upstream: UpstreamClient = fake.client) {
  const rateLimits = createRateLimits(config.rateLimits);
  const app = createApp({
    config,
    logger: createLogger("silent"),
    store,
    signingSecret: "s".repeat(32),
    upstream,
    rateLimits,
  });
  return { app, rateLimits };
}

async function give(app: ReturnType<typeof proxyApp>["app"], amount: string, key: string) {
  const res = await app.request("/v1/donations", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify({
      shortcode: "71777",
      keyword: "HOPE",
      amount,
      donor: { first_name: "Ana", last_name: "Doe", email: `ana-${key}@example.org` },
      credit_card_token: `tok_${key}`,
    }),
  });
  return {
    status: res.status,
    replayed: res.headers.get("idempotent-replayed"),
    // oxlint-disable-next-line typescript/no-explicit-any -- answers are read field by field in assertions
    json: (await res.json()) as Record<string, any>,
  };
}

const donates = () => received.filter((request) => request.path === DONATE);
const attemptsOf = async (key: string) =>
  (await store.attempts()).filter((attempt) => attempt.idempotency_key === key);

describe("what the attempt makes of each outcome of donate()", () => {
  it("succeeded → 200 Success, recorded succeeded with its transaction; the key replays it, nothing sent again", async () => {
    const { app, rateLimits } = proxyApp();
    const key = randomUUID();
    const reply = await give(app, "25.00", key);
    expect(reply.status).toBe(200);
    expect(reply.json.donation).toMatchObject({ status: "Success", transaction_id: "4242", amount: "25.00" });
    const [attempt] = await attemptsOf(key);
    expect(attempt).toMatchObject({ state: "succeeded", transaction_id: "4242", upstream_status: 200 });
    expect(donates().map((request) => request.body.source)).toEqual([`givekit.${attempt!.reference}`]);

    const replay = await give(app, "25.00", key);
    expect([replay.status, replay.replayed]).toEqual([200, "true"]);
    expect(donates()).toHaveLength(1);
    expect(await rateLimits.declinesOf(CLIENT)).toBe(0);
  });

  it("declined → 402 card_declined, recorded declined, the decline counted against the client; the key replays it", async () => {
    const { app, rateLimits } = proxyApp();
    const key = randomUUID();
    const reply = await give(app, "26.00", key);
    expect([reply.status, reply.json.code]).toEqual([402, "card_declined"]);
    expect(await attemptsOf(key)).toMatchObject([{ state: "declined", upstream_status: 402 }]);
    expect(await rateLimits.declinesOf(CLIENT)).toBe(1);

    const replay = await give(app, "26.00", key);
    expect([replay.status, replay.replayed, replay.json.code]).toEqual([402, "true", "card_declined"]);
    expect(donates()).toHaveLength(1);
    expect(await rateLimits.declinesOf(CLIENT)).toBe(1);
  });

  it("fatal → 502 payment_failed, recorded failed; the key replays it, nothing sent again", async () => {
    const { app } = proxyApp();
    const key = randomUUID();
    const reply = await give(app, "27.00", key);
    expect([reply.status, reply.json.code]).toEqual([502, "payment_failed"]);
    expect(await attemptsOf(key)).toMatchObject([{ state: "failed", upstream_status: 200 }]);
    const replay = await give(app, "27.00", key);
    expect([replay.status, replay.replayed]).toEqual([502, "true"]);
    expect(donates()).toHaveLength(1);
  });

  it("rejected (a 4xx refusing the request) → 502 upstream_error without its text, recorded rejected; the key replays it", async () => {
    const { app } = proxyApp();
    const key = randomUUID();
    const reply = await give(app, "29.00", key);
    expect([reply.status, reply.json.code]).toEqual([502, "upstream_error"]);
    expect(JSON.stringify(reply.json)).not.toContain("Keyword closed");
    expect(await attemptsOf(key)).toMatchObject([{ state: "rejected", upstream_status: 422 }]);
    const replay = await give(app, "29.00", key);
    expect([replay.status, replay.replayed]).toEqual([502, "true"]);
    expect(donates()).toHaveLength(1);
  });

  it("unknown (HTTP 500 without a donation) → 202 Pending, recorded unknown; the key replays Pending, never sends again", async () => {
    const { app } = proxyApp();
    const key = randomUUID();
    const reply = await give(app, "28.00", key);
    expect(reply.status).toBe(202);
    expect(reply.json.donation.status).toBe("Pending");
    expect(await attemptsOf(key)).toMatchObject([
      { reference: reply.json.donation.reference, state: "unknown", upstream_status: 500 },
    ]);
    const replay = await give(app, "28.00", key);
    expect([replay.status, replay.replayed]).toEqual([202, "true"]);
    expect(donates()).toHaveLength(1);
  });

  it("not sent (a refused connection) → 503 upstream_unavailable, recorded not_sent; the same key is free and then charges once", async () => {
    const nowhere = createUpstreamClient({ ...config.upstream, baseUrl: "http://127.0.0.1:9" });
    try {
      const key = randomUUID();
      const reply = await give(proxyApp(nowhere).app, "25.00", key);
      expect([reply.status, reply.json.code]).toEqual([503, "upstream_unavailable"]);
      expect(await attemptsOf(key)).toMatchObject([{ state: "not_sent" }]);
      expect(donates()).toEqual([]);

      const retried = await give(proxyApp().app, "25.00", key);
      expect([retried.status, retried.replayed]).toEqual([200, null]);
      expect(donates()).toHaveLength(1);
      expect((await attemptsOf(key)).map((attempt) => attempt.state).toSorted()).toEqual([
        "not_sent",
        "succeeded",
      ]);
    } finally {
      nowhere.close();
    }
  });

  it("not sent (the login refused) → 502 upstream_auth_failed, recorded not_sent, no donate written; the key is free", async () => {
    const client = createUpstreamClient(config.upstream);
    try {
      refuseLogin = true;
      const key = randomUUID();
      const reply = await give(proxyApp(client).app, "25.00", key);
      expect([reply.status, reply.json.code]).toEqual([502, "upstream_auth_failed"]);
      expect(await attemptsOf(key)).toMatchObject([{ state: "not_sent" }]);
      expect(received.map((request) => request.path)).toEqual([LOGIN]);

      refuseLogin = false;
      const retried = await give(proxyApp(client).app, "25.00", key);
      expect([retried.status, retried.replayed]).toEqual([200, null]);
      expect(donates()).toHaveLength(1);
    } finally {
      client.close();
    }
  });

  it("a donate() that throws, even a problem meaning 'not sent', decides nothing: 202 Pending, recorded unknown, the key never freed", async () => {
    const throwing: UpstreamClient = {
      ...fake.client,
      donate: async (donation) => {
        await fake.client.donate(donation);
        throw new ProblemError("upstream_unavailable", "a fault after the donate was written");
      },
    };
    const key = randomUUID();
    const reply = await give(proxyApp(throwing).app, "25.00", key);
    expect(reply.status).toBe(202);
    expect(await attemptsOf(key)).toMatchObject([{ state: "unknown" }]);
    const replay = await give(proxyApp().app, "25.00", key);
    expect([replay.status, replay.replayed]).toEqual([202, "true"]);
    expect(donates()).toHaveLength(1);
  });
});
