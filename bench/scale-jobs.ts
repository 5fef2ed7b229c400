/**
 * The proxy's other background jobs at scale, with its event loop's delay beside each (issue 43):
 * - the reconciler with a year of attempts in the store: 1,000,000 succeeded attempts (SQLite)
 *   and one unknown $25.00 attempt, whose gift the sandbox holds tagged with its reference; from
 *   the proxy's start to the attempt settled;
 * - webhook delivery of a backlog: BENCH_WEBHOOK_BACKLOG events (100,000) waiting in the outbox
 *   for a receiver that was down; BENCH_WEBHOOK_WINDOW_S (15 s) of their delivery to it;
 * - one claim of that backlog on PostgreSQL (bench/scale-outbox-claim.ts).
 * Each time: the proxy's event-loop delay p99 and max (its /metrics), every /v1/health timed
 * meanwhile, its peak memory. The proxy and the sandbox each run as a program of its own (tsx,
 * SQLite in a temporary directory); the receiver runs in this process.
 *
 * The proxy runs with the GUIDE's unit's node options (bench/scale-gifts.ts PROXY_NODE_ARGS);
 * BENCH_PROXY_NODE_ARGS: more of node's options for the proxy, space-separated (a CPU profile:
 * `--cpu-prof --cpu-prof-dir=…`, written when the proxy stops).
 * `npx tsx bench/scale-jobs.ts` runs it alone; `benchScaleJobs()` is what `npm run bench` calls.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatAuthorization } from "../contract/upstream";
import { openSqliteStore } from "../proxy/store/sqlite";
import { DB_FILE } from "../proxy/store/sqlite/data-dir";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../sandbox/fixture";
import { openSqlite } from "../sqlite/open";
import { loopDelay, METRICS_TOKEN, probeHealth } from "../test/helpers/loop-delay";
import { fillStore } from "../test/helpers/year-of-attempts";
import { memoryOf, program, PROXY_NODE_ARGS, type Program } from "./scale-gifts";
import { benchOutboxClaim, describeClaim } from "./scale-outbox-claim";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

const ATTEMPTS = Number(process.env.BENCH_YEAR_ATTEMPTS || 1_000_000);
const BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG || 100_000);
const WINDOW_S = Number(process.env.BENCH_WEBHOOK_WINDOW_S || 15);
const SETTLE_LIMIT_MS = 120_000;

export interface JobFigures {
  job: string;
  /** What the job did, in words with its figures. */
  done: string;
  loopP99Ms: number;
  loopMaxMs: number;
  healthMaxMs: number;
  healthProbes: number;
  peakMb: number;
}

const round = (value: number) => Math.round(value * 10) / 10;
const hope = () => loadFixtureFile(DEMO_FIXTURE_PATH).accounts.find((a) => a.name === "Hope Shelter")!;

function proxyEnv(
  sandboxUrl: string,
  dataDir: string,
  extra: Record<string, string>,
): Record<string, string> {
  const account = hope();
  return {
    HOST: "127.0.0.1",
    PORT: "0",
    UPSTREAM_BASE_URL: sandboxUrl,
    UPSTREAM_PRIVATE_TOKEN: account.privateToken,
    UPSTREAM_PUBLIC_TOKEN: account.publicToken,
    GIVEKIT_DATA_DIR: dataDir,
    GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
    LOG_LEVEL: "warn",
    ...extra,
  };
}

const startSandbox = () =>
  program(
    "sandbox/server.ts",
    { SANDBOX_DB: ":memory:", SANDBOX_PORT: "0", SANDBOX_HOST: "127.0.0.1" },
    "stdout",
  );

/** The reconciler: one unknown attempt among a year of succeeded ones, settled against the sandbox. */
async function reconcilerJob(): Promise<JobFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), "givekit-jobs-"));
  const sandbox = await startSandbox();
  let proxy: Program | undefined;
  try {
    fillStore(dataDir, ATTEMPTS);
    const reference = `gk_bench${String(Date.now()).padStart(16, "0")}`;
    const createdAt = new Date().toISOString();
    const db = openSqlite(join(dataDir, DB_FILE));
    db.prepare(
      `INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode,
         keyword, amount, fee_amount, state, upstream_status, transaction_id, created_at, updated_at)
       VALUES (?, 'bench-unknown', 'origin:https://shelter.example', '203.0.113.5', 'fp', '71777', 'HOPE', '25.00',
         '0.00', 'unknown', NULL, NULL, ?, ?)`,
    ).run(reference, createdAt, createdAt);
    // The gift the upstream took for it, tagged with its reference as the proxy tags every donation.
    const account = hope();
    const login = (await (
      await fetch(`${sandbox.url}/api/v2/users/login_with_auth_token`, {
        method: "POST",
        headers: {
          Authorization: formatAuthorization(account.privateToken, "private"),
          "Content-Type": "application/json",
        },
        body: "{}",
      })
    ).json()) as { user: { session_token: string } };
    const gift = await fetch(`${sandbox.url}/api/v2/donations/donate`, {
      method: "POST",
      headers: {
        Authorization: formatAuthorization(login.user.session_token, "session"),
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        shortcode_string: "71777",
        keyword_string: "HOPE",
        amount: "25.00",
        card_number: "4242424242424242",
        cvv: "123",
        expiration_date: FUTURE_EXPIRY,
        source: `givekit.${reference}`,
      }),
    });
    if (!gift.ok) throw new Error(`the sandbox's donate answered ${gift.status}`);

    proxy = await program(
      "proxy/server.ts",
      proxyEnv(sandbox.url, dataDir, {
        GIVEKIT_RECONCILE_INTERVAL_S: "1",
        GIVEKIT_RECONCILE_SETTLE_S: "900",
      }),
      "stderr",
      PROXY_NODE_ARGS,
    );
    const started = performance.now();
    await loopDelay(proxy.url);
    const probes = probeHealth(proxy.url);
    const read = db.prepare<[string], { state: string }>(
      "SELECT state FROM donation_attempts WHERE reference = ?",
    );
    let state = "unknown";
    while (state === "unknown" && performance.now() - started < SETTLE_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = read.get(reference)?.state ?? "missing";
    }
    const settledMs = performance.now() - started;
    const health = await probes.stop();
    const loop = await loopDelay(proxy.url);
    db.close();
    return {
      job: `reconciler, ${ATTEMPTS.toLocaleString("en-US")} attempts in the store`,
      done: `one unknown attempt ${state} ${(settledMs / 1000).toFixed(1)} s after the proxy's start (interval 1 s)`,
      loopP99Ms: round(loop.p99),
      loopMaxMs: round(loop.max),
      healthMaxMs: round(health.max),
      healthProbes: health.times.length,
      peakMb: memoryOf(proxy.child.pid!).peak,
    };
  } finally {
    await proxy?.stop();
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Webhook delivery: a backlog waiting in the outbox, delivered to a receiver back up. */
async function webhookJob(): Promise<JobFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), "givekit-jobs-"));
  const sandbox = await startSandbox();
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/givekit`;
  let proxy: Program | undefined;
  try {
    await openSqliteStore({ dataDir, retentionH: 24, leaseMs: 20_000 }).close();
    const db = openSqlite(join(dataDir, DB_FILE));
    const insert = db.prepare(
      `INSERT INTO webhook_outbox (event_id, event_type, endpoint, order_key, body, created_at, next_at, state)
       VALUES (?, 'donation.succeeded', ?, ?, ?, ?, ?, 'pending')`,
    );
    const since = Date.now() - 3600_000;
    db.transaction(() => {
      for (let i = 0; i < BACKLOG; i++) {
        const id = `evt_bench${String(i).padStart(12, "0")}`;
        const reference = `gk_backlog${String(i).padStart(14, "0")}`;
        const body = JSON.stringify({
          id,
          type: "donation.succeeded",
          version: 1,
          created: new Date(since + i).toISOString(),
          data: { reference, amount: "25.00", shortcode: "71777", keyword: "HOPE" },
        });
        insert.run(id, url, reference, body, since + i, since + i);
      }
    })();
    db.close();
    proxy = await program(
      "proxy/server.ts",
      proxyEnv(sandbox.url, dataDir, {
        GIVEKIT_RECONCILE_INTERVAL_S: "0",
        GIVEKIT_WEBHOOKS: JSON.stringify([
          { url, secret: "w".repeat(32), events: ["donation.succeeded"], allow_private: true },
        ]),
        // Polled every 100 ms (16 deliveries in flight at most), so the window sees a steady flow.
        GIVEKIT_WEBHOOK_BACKOFF_MS: "100",
      }),
      "stderr",
      PROXY_NODE_ARGS,
    );
    await loopDelay(proxy.url);
    const probes = probeHealth(proxy.url);
    const from = received;
    await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
    const delivered = received - from;
    const health = await probes.stop();
    const loop = await loopDelay(proxy.url);
    return {
      job: `webhook delivery, a backlog of ${BACKLOG.toLocaleString("en-US")} events`,
      done: `${delivered.toLocaleString("en-US")} delivered in ${WINDOW_S} s (${Math.round(delivered / WINDOW_S)}/s)`,
      loopP99Ms: round(loop.p99),
      loopMaxMs: round(loop.max),
      healthMaxMs: round(health.max),
      healthProbes: health.times.length,
      peakMb: memoryOf(proxy.child.pid!).peak,
    };
  } finally {
    await proxy?.stop();
    await sandbox.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The jobs' part of the bench's scale part: one line each, the loop's delay beside it. */
export async function benchScaleJobs(
  // oxlint-disable-next-line no-console -- a bench prints its figures.
  say: (line: string) => void = console.log,
): Promise<JobFigures[]> {
  say("\nBackground jobs (proxy and sandbox each a program of its own, under tsx, on SQLite)");
  const all: JobFigures[] = [];
  for (const job of [reconcilerJob, webhookJob]) {
    const f = await job();
    all.push(f);
    say(
      `  ${f.job}: ${f.done}; event-loop delay p99 ${f.loopP99Ms} ms max ${f.loopMaxMs} ms; ` +
        `health max ${f.healthMaxMs} ms over ${f.healthProbes} probes; proxy peak ${f.peakMb} MB`,
    );
  }
  // The same backlog's claim on PostgreSQL, where several proxies share the outbox.
  say(`  ${describeClaim(await benchOutboxClaim())}`);
  return all;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchScaleJobs();
}
