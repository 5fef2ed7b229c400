// A giving day's goal bar: 100,000 gifts in the sandbox, two proxies on one PostgreSQL. The
// figures equal the sandbox's own totals, the report is read at most once per interval between
// the two proxies, and cold is as proxy/GUIDE.md says. (1,000,000 gifts: bench/scale-gifts.ts.)
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../helpers/postgres";
import { startProxy, type ProxyHandle } from "../helpers/proxy";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { donate, donation, login } from "../sandbox/support";
import { client, upstreamCalls } from "./support";

const GIFTS = 100_000;
const INTERVAL_S = 1;
const REPORT_PATH = "/api/v2/reports/transactions.json";
const PROGRESS = "/v1/campaigns/71777/HOPE/progress";

describe("progress on an account of 100,000 gifts, two proxies on one store", () => {
  let sandbox: SandboxHandle;
  let a: ProxyHandle;
  let b: ProxyHandle;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const built = await fetch(`${sandbox.url}/_sandbox/bulk`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shortcode: "71777", keyword: "HOPE", transactions: GIFTS, days: 30 }),
    });
    if (built.status !== 200) throw new Error(`bulk: ${built.status}`);
    const env = {
      DATABASE_URL: await testDatabase(),
      GIVEKIT_SIGNING_SECRET: randomBytes(32).toString("hex"),
      GIVEKIT_PROGRESS_CACHE_S: String(INTERVAL_S),
    };
    a = await startProxy({ upstreamUrl: sandbox.url, env });
    b = await startProxy({ upstreamUrl: sandbox.url, env });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sandbox?.close();
  });

  const totals = async () =>
    (await (await fetch(`${sandbox.url}/_sandbox/totals?shortcode=71777&keyword=HOPE`)).json()) as {
      raised: string;
      donors: number;
    };

  it("cold: 200 once the first read is done (503 with Retry-After while it takes longer than 5 s); then the sandbox's totals from either proxy", async () => {
    const started = Date.now();
    const first = await client(a.url).get(PROGRESS);
    // Either the first read was done within COLD_WAIT_MS (200), or a 503 says when to come back.
    const cold =
      first.status === 200
        ? "ready"
        : `${first.status} ${first.json.code} ${Number(first.headers.get("retry-after")) > 0}`;
    expect(["ready", "503 upstream_unavailable true"]).toContain(cold);
    await expect
      .poll(async () => (await client(a.url).get(PROGRESS)).status, { timeout: 60_000, interval: 500 })
      .toBe(200);
    const expected = await totals();
    for (const proxy of [a, b]) {
      const reply = await client(proxy.url).get(PROGRESS);
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ raised: expected.raised, donors: expected.donors });
    }
    // One full read between the two proxies, not one each, and at most one a interval after it.
    const elapsedS = (Date.now() - started) / 1000;
    expect(await upstreamCalls(sandbox, REPORT_PATH)).toBeLessThanOrEqual(
      1 + Math.floor(elapsedS / INTERVAL_S),
    );
  }, 90_000);

  it("warm: every page view answered from the store; the report read at most once per interval between both proxies", async () => {
    const before = await upstreamCalls(sandbox, REPORT_PATH);
    const started = Date.now();
    let views = 0;
    while (Date.now() - started < 4 * INTERVAL_S * 1000) {
      const replies = await Promise.all([client(a.url).get(PROGRESS), client(b.url).get(PROGRESS)]);
      expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
      views += 2;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsedS = (Date.now() - started) / 1000;
    const reads = (await upstreamCalls(sandbox, REPORT_PATH)) - before;
    expect(views).toBeGreaterThan(10);
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(Math.ceil(elapsedS / INTERVAL_S) + 1);
    // Still the sandbox's totals (only the changes were read again).
    const expected = await totals();
    expect((await client(b.url).get(PROGRESS)).json).toMatchObject({
      raised: expected.raised,
      donors: expected.donors,
    });
  }, 60_000);

  it("new gifts are in the figures after the next interval, read as changes only", async () => {
    const session = await login(sandbox);
    for (const amount of ["12.00", "30.50", "7.25"]) {
      await donate(sandbox, session, donation({ amount, email: `new-${amount}@example.org` }));
    }
    const expected = await totals();
    await expect
      .poll(async () => (await client(b.url).get(PROGRESS)).json.raised, { timeout: 20_000, interval: 500 })
      .toBe(expected.raised);
    expect((await client(a.url).get(PROGRESS)).json.donors).toBe(expected.donors);
  }, 30_000);
});
