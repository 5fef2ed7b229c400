// A year of a busy nonprofit's attempts in the store (1,000,000 succeeded on SQLite, 200,000 on PostgreSQL) and one unknown
// outcome: the reconciler settles it within its interval plus 10 s, the proxy's memory stays
// under 300 MB, every /v1/health is answered within 100 ms meanwhile, and a SIGTERM while it
// reconciles ends the proxy within the drain's bound. The proxy runs as a program of its own, so
// this file's event loop (the sandbox, the timed probes) does not weigh on the figures.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../../proxy/store/postgres";
import { loopDelay, METRICS_TOKEN, probeHealth } from "../../helpers/loop-delay";
import { sql, testDatabase } from "../../helpers/postgres";
import { fillStore } from "../../helpers/year-of-attempts";
import { spawnProxy, type ProxyProcess } from "../../helpers/proxy-process";
import { startSandbox, type SandboxHandle } from "../../helpers/sandbox";
import { client, donate, donationBody, tokenize } from "../support";

/** A year's attempts on SQLite; 200,000 on PostgreSQL in the suite (a million: the bench). */
const STORES = [
  { name: "SQLite", attempts: 1_000_000 },
  { name: "PostgreSQL", attempts: 200_000 },
] as const;
const INTERVAL_S = 1;
const CONNECT_TIMEOUT_MS = 500;
const TIMEOUT_MS = 800;
/** proxy/listen.ts: requests in flight get the upstream's timeouts and a second more. */
const DRAIN_MS = CONNECT_TIMEOUT_MS + TIMEOUT_MS + 1000;

/** The same on PostgreSQL (test setup): one INSERT … SELECT over generate_series. */
async function fillDatabase(url: string, count: number): Promise<void> {
  const store = await openPostgresStore({
    url,
    retentionH: 24,
    leaseMs: 20_000,
    poolMax: 1,
    connectTimeoutMs: 5000,
  });
  await store.close();
  const yearAgo = Date.now() - 365 * 86_400_000;
  await sql(
    url,
    `INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode,
       keyword, amount, fee_amount, state, upstream_status, transaction_id, created_at, updated_at)
     SELECT 'gk_year' || lpad(i::text, 16, '0'), 'year-' || i, 'origin:https://shelter.example', '203.0.113.5', 'fp',
       '71777', 'HOPE', '25.00', '0.00', 'succeeded', 200, 'y' || i, at, at
     FROM generate_series(0, $1::int - 1) AS i,
       LATERAL (SELECT to_char(to_timestamp(($2::bigint + (i::bigint * 31536000000) / $1::int) / 1000.0) AT TIME ZONE 'UTC',
         'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) AS made`,
    [count, yearAgo],
  );
}

/** The program's peak resident memory (Linux: VmHWM), in MB. */
function peakMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

describe.each(STORES)(
  "reconciling with a year of attempts in the store ($attempts, $name)",
  ({ name, attempts: ATTEMPTS }) => {
    let sandbox: SandboxHandle;
    let proxy: ProxyProcess;
    let dataDir: string;
    let setupMs = 0;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "givekit-year-"));
      const databaseUrl = name === "PostgreSQL" ? await testDatabase() : null;
      const started = performance.now();
      if (databaseUrl) await fillDatabase(databaseUrl, ATTEMPTS);
      else fillStore(dataDir, ATTEMPTS);
      setupMs = performance.now() - started;
      sandbox = await startSandbox();
      proxy = await spawnProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { GIVEKIT_DATA_DIR: dataDir }),
        GIVEKIT_SIGNING_SECRET: "y".repeat(64),
        UPSTREAM_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
        GIVEKIT_RECONCILE_INTERVAL_S: String(INTERVAL_S),
        GIVEKIT_RECONCILE_SETTLE_S: "900",
        GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
        ...(process.env.H43_PROF ? { NODE_OPTIONS: "--cpu-prof --cpu-prof-dir=/tmp/h43prof" } : {}),
        LOG_LEVEL: "warn",
      });
    }, 240_000);
    afterAll(async () => {
      await proxy?.kill();
      await sandbox?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("an unknown outcome is settled within the interval plus 10 s, under 300 MB, every health probe within 100 ms", async () => {
      process.stdout.write(`store of ${ATTEMPTS} attempts built in ${Math.round(setupMs)} ms (test setup)\n`);
      const api = client(proxy.url);
      // A gift first, so what the first ones load (tokenizing, donating) is not timed as the job's.
      expect((await donate(api, donationBody(await tokenize(api)), randomUUID())).status).toBe(200);
      await loopDelay(proxy.url);
      const probes = probeHealth(proxy.url);
      const reply = await donate(api, donationBody(await tokenize(api), { amount: "777.77" }), randomUUID());
      expect(reply.status).toBe(202);
      const reference = reply.json.donation.reference as string;
      const unknownAt = performance.now();
      let status = "";
      while (status !== "Success" && performance.now() - unknownAt < (INTERVAL_S + 10) * 1000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await api.get(`/v1/donations/${reference}`)).json.donation.status as string;
      }
      const settledMs = performance.now() - unknownAt;
      const health = await probes.stop();
      const delay = await loopDelay(proxy.url);
      process.stdout.write(
        `settled in ${Math.round(settledMs)} ms; health: ${health.times.length} probes, max ${health.max.toFixed(1)} ms; proxy's event-loop delay p99 ${delay.p99.toFixed(1)} ms, max ${delay.max.toFixed(1)} ms; peak ${Math.round(peakMb(proxy.child.pid!))} MB\n`,
      );
      expect(status).toBe("Success");
      // The money: the sandbox's own row tagged with the attempt is the transaction it was given.
      const mine = (await sandbox.transactions({ status: "collected" })).filter(
        (row) => row.source === `api_via_givekit.${reference}`,
      );
      expect(mine).toHaveLength(1);
      expect((await api.get(`/v1/donations/${reference}`)).json.donation.transaction_id).toBe(
        mine[0]!.transaction_id,
      );
      expect(settledMs).toBeLessThan((INTERVAL_S + 10) * 1000);
      expect(health.failures).toBe(0);
      expect(health.max).toBeLessThan(100);
      expect(peakMb(proxy.child.pid!)).toBeLessThan(300);
    }, 120_000);

    it("a SIGTERM while an unknown outcome is being reconciled ends the proxy within the drain's bound", async () => {
      const api = client(proxy.url);
      const reply = await donate(api, donationBody(await tokenize(api), { amount: "777.77" }), randomUUID());
      expect(reply.status).toBe(202);
      // The reconciler's passes run every second: one is under way or about to start.
      await new Promise((resolve) => setTimeout(resolve, INTERVAL_S * 1000 + 200));
      const started = performance.now();
      proxy.child.kill("SIGTERM");
      const code = await proxy.exited;
      const tookMs = performance.now() - started;
      process.stdout.write(
        `exit ${code} ${Math.round(tookMs)} ms after SIGTERM (drain bound ${DRAIN_MS} ms)\n`,
      );
      expect(code).toBe(0);
      expect(tookMs).toBeLessThan(DRAIN_MS);
    }, 60_000);
  },
);
