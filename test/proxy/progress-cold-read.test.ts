// A cold progress read of 100,000 gifts (1,000,000: bench/scale-gifts.ts) never keeps a probe
// waiting: the proxy's event-loop delay stays under 50 ms at p99 and 100 ms at most, every
// /v1/health meanwhile is answered within 100 ms, the figures equal the sandbox's own totals,
// and a SIGTERM during such a read answers the page waiting on it at once and ends the proxy
// within the drain's bound. The proxy and the
// sandbox each run as a program of their own, so this file's event loop does not weigh on it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loopDelay, METRICS_TOKEN, probeHealth } from "../helpers/loop-delay";
import { spawnProxy, type ProxyProcess } from "../helpers/proxy-process";
import type { SandboxHandle } from "../helpers/sandbox";
import { startSandboxProgram } from "../helpers/sandbox-process";

const GIFTS = 100_000;
const PROGRESS = "/v1/campaigns/71777/HOPE/progress";
const CONNECT_TIMEOUT_MS = 500;
const TIMEOUT_MS = 1500;
/** proxy/listen.ts: requests in flight get the upstream's timeouts and a second more. */
const DRAIN_MS = CONNECT_TIMEOUT_MS + TIMEOUT_MS + 1000;

describe("a cold progress read of 100,000 gifts", () => {
  // The sandbox as a program of its own: its report of 100,000 rows is written on its own event loop.
  let sandbox: SandboxHandle;
  const dirs: string[] = [];

  const proxyOn = (env: Record<string, string> = {}) => {
    const dataDir = mkdtempSync(join(tmpdir(), "givekit-cold-"));
    dirs.push(dataDir);
    return spawnProxy({
      UPSTREAM_BASE_URL: sandbox.url,
      GIVEKIT_DATA_DIR: dataDir,
      GIVEKIT_SIGNING_SECRET: "c".repeat(64),
      UPSTREAM_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
      GIVEKIT_RECONCILE_INTERVAL_S: "0",
      LOG_LEVEL: "warn",
      ...env,
    });
  };

  beforeAll(async () => {
    sandbox = await startSandboxProgram();
    const built = await fetch(`${sandbox.url}/_sandbox/bulk`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shortcode: "71777", keyword: "HOPE", transactions: GIFTS, days: 30 }),
    });
    if (built.status !== 200) throw new Error(`bulk: ${built.status}`);
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("event-loop delay p99 under 50 ms and max under 100 ms, every health probe within 100 ms, figures exact", async () => {
    const proxy: ProxyProcess = await proxyOn();
    await (await fetch(`${proxy.url}/v1/health`)).arrayBuffer();
    await loopDelay(proxy.url);
    const probes = probeHealth(proxy.url);
    const started = performance.now();
    let figures: { raised: string; donors: number } | undefined;
    while (performance.now() - started < 100_000) {
      const reply = await fetch(proxy.url + PROGRESS);
      if (reply.status === 200) {
        figures = (await reply.json()) as { raised: string; donors: number };
        break;
      }
      await reply.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const coldMs = performance.now() - started;
    const health = await probes.stop();
    const delay = await loopDelay(proxy.url);
    const slowest = health.max;
    process.stdout.write(
      `cold read ${Math.round(coldMs)} ms; event-loop delay p99 ${delay.p99.toFixed(1)} ms, max ${delay.max.toFixed(1)} ms; ${health.times.length} health probes, slowest ${slowest.toFixed(1)} ms\n`,
    );
    const totals = (await (
      await fetch(`${sandbox.url}/_sandbox/totals?shortcode=71777&keyword=HOPE`)
    ).json()) as { raised: string; donors: number };
    expect(figures).toMatchObject({ raised: totals.raised, donors: totals.donors });
    expect(delay.p99).toBeLessThan(50);
    expect(delay.max).toBeLessThan(100);
    expect(health.failures).toBe(0);
    expect(slowest).toBeLessThan(100);
    await proxy.stop();
  }, 150_000);

  it("a SIGTERM during the read ends the proxy within the drain's bound", async () => {
    const proxy = await proxyOn();
    // The first view starts the read (and waits for it up to COLD_WAIT_MS); the signal comes mid-read.
    const viewing = fetch(proxy.url + PROGRESS)
      .then(async (reply) => ({
        status: reply.status,
        retryAfter: reply.headers.get("Retry-After"),
        text: await reply.text(),
      }))
      .catch((error: unknown) => ({ status: 0, retryAfter: null, text: String(error) }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = performance.now();
    proxy.child.kill("SIGTERM");
    const code = await proxy.exited;
    const tookMs = performance.now() - started;
    const page = await viewing;
    process.stdout.write(
      `exit ${code} ${Math.round(tookMs)} ms after SIGTERM (drain bound ${DRAIN_MS} ms); the waiting page: ${page.status}\n`,
    );
    expect(code).toBe(0);
    // The page waiting on the cold read (up to COLD_WAIT_MS, longer than the drain) is answered
    // as the proxy starts draining: told to come back, not cut off at the drain's end.
    expect(page.status).toBe(503);
    expect(page.text).toContain("upstream_unavailable");
    expect(Number(page.retryAfter)).toBeGreaterThanOrEqual(1);
    // So the program exits, its store closed, within the drain's bound.
    expect(tookMs).toBeLessThan(DRAIN_MS);
  }, 60_000);
});
