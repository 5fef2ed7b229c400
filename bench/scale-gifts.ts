/**
 * Scale of gifts: for accounts of 1,000 / 100,000 / 1,000,000 transactions in the sandbox
 * (POST /_sandbox/bulk, spread over 30 days), what the proxy's goal bar and reconciler cost.
 *
 * For each size, a fresh sandbox and a fresh proxy, each a program of its own (node + tsx, on
 * SQLite in a temporary directory), then:
 * - the report: its bytes (the keyword's collected rows, read raw by the bench) and the sandbox's
 *   time to write them;
 * - progress cold: from the first GET to the first 200 (a 503 with Retry-After meanwhile), and
 *   whether the figures equal the sandbox's own totals (GET /_sandbox/totals);
 * - progress warm: BENCH_SCALE_WARM_REQUESTS GETs one after another, median and p95, the body's bytes;
 * - the proxy's memory: peak RSS (VmHWM) after the cold read, RSS after the warm ones;
 * - the reconciler: one unknown $25.00 attempt (its row tagged with its reference, among every
 *   other $25.00 row of the account), settled by one pass of proxy/reconcile in this process,
 *   against the same sandbox; its time.
 *
 * `npx tsx bench/scale-gifts.ts` runs it alone; `benchScaleGifts()` is what `npm run bench`
 * calls. BENCH_SCALE_SIZES (comma list) picks the sizes; the proxy runs with the GUIDE's unit's node options, and BENCH_PROXY_NODE_ARGS gives more of the proxy node's
 * options (`--cpu-prof --cpu-prof-dir=…`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatAuthorization } from "../contract/upstream";
import { createReconciler } from "../proxy/reconcile/reconciler";
import type { AttemptRecord } from "../proxy/store";
import { createUpstreamClient } from "../proxy/upstream/client";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../sandbox/fixture";
import { loopDelay, METRICS_TOKEN, probeHealth } from "../test/helpers/loop-delay";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_SIZES = [1_000, 100_000, 1_000_000];
const WARM_REQUESTS = Number(process.env.BENCH_SCALE_WARM_REQUESTS || 200);
const PROGRESS_PATH = "/v1/campaigns/71777/HOPE/progress";
const START_TIMEOUT_MS = 30_000;
const COLD_LIMIT_MS = 600_000;
/**
 * The proxy's node options: the GUIDE's systemd unit's young generation (--max-semi-space-size=4,
 * proxy/GUIDE.md "Running it"), then BENCH_PROXY_NODE_ARGS's (space-separated, e.g. `--cpu-prof`).
 */
export const PROXY_NODE_ARGS: readonly string[] = [
  "--max-semi-space-size=4",
  ...(process.env.BENCH_PROXY_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
];
export interface ScaleGiftsFigures {
  gifts: number;
  bulkMs: number;
  reportBytes: number;
  reportMs: number;
  coldMs: number;
  cold503s: number;
  warmMedianMs: number;
  warmP95Ms: number;
  progressBytes: number;
  equalsSandbox: boolean;
  proxyPeakMb: number;
  proxyRssMb: number;
  reconcileMs: number;
  reconcileResult: string;
  /** The proxy's event-loop delay during the cold read (its /metrics), and the slowest health probe meanwhile. */
  coldLoopP99Ms: number;
  coldLoopMaxMs: number;
  coldHealthMaxMs: number;
}

export interface Program {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts `node [nodeArgs] --import tsx <entry>` and resolves with the URL it prints. */
export async function program(
  entry: string,
  env: Record<string, string>,
  stream: "stdout" | "stderr",
  nodeArgs: readonly string[] = [],
): Promise<Program> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    if (stream === "stdout") output += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    if (stream === "stderr") output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start: ${output}`)), START_TIMEOUT_MS);
    const look = () => {
      const match = /listening on (http:\/\/[^\s",]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child[stream]!.on("data", look);
    void exited.then(() => reject(new Error(`${entry} stopped: ${output}`)));
  });
  // Keep draining its output so it never blocks on a full pipe.
  child[stream]!.on("data", () => (output = output.slice(-10_000)));
  return {
    child,
    url,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Resident set size now and at its peak, in MB (Linux /proc). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
}

/** A GET with a JSON body (the reports API), counting the answer's bytes without keeping them. */
function getBytes(
  url: string,
  authorization: string,
  body: unknown,
): Promise<{ bytes: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "GET",
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(payload),
          Authorization: authorization,
        },
      },
      (res) => {
        let bytes = 0;
        let head = "";
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (head.length < 4096) head += chunk.toString("utf8", 0, Math.min(chunk.length, 4096));
        });
        res.on("end", () => resolve({ bytes, text: head }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const percentile = (values: number[], p: number) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
};
const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

async function measure(gifts: number): Promise<ScaleGiftsFigures> {
  const fixture = loadFixtureFile(DEMO_FIXTURE_PATH);
  const hope = fixture.accounts.find((account) => account.name === "Hope Shelter")!;
  const sandbox = await program(
    "sandbox/server.ts",
    { SANDBOX_DB: ":memory:", SANDBOX_PORT: "0", SANDBOX_HOST: "127.0.0.1" },
    "stdout",
  );
  const dataDir = mkdtempSync(join(tmpdir(), "givekit-scale-"));
  let proxy: Program | undefined;
  try {
    let started = performance.now();
    const bulk = await fetch(`${sandbox.url}/_sandbox/bulk`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shortcode: "71777", keyword: "HOPE", transactions: gifts, days: 30 }),
    });
    if (bulk.status !== 200) throw new Error(`bulk answered ${bulk.status}`);
    const bulkMs = performance.now() - started;

    // The report the goal bar reads, as the upstream sends it.
    const authorization = formatAuthorization(hope.privateToken);
    started = performance.now();
    const created = await getBytes(`${sandbox.url}/api/v2/reports/transactions.json`, authorization, {
      shortcode: "71777",
      keyword: "HOPE",
      status: "collected",
    });
    const id = (JSON.parse(created.text) as { report: { id: number } }).report.id;
    const report = await getBytes(`${sandbox.url}/api/v2/reports/results.json`, authorization, { id });
    const reportMs = performance.now() - started;

    proxy = await program(
      "proxy/server.ts",
      {
        HOST: "127.0.0.1",
        PORT: "0",
        UPSTREAM_BASE_URL: sandbox.url,
        UPSTREAM_PRIVATE_TOKEN: hope.privateToken,
        UPSTREAM_PUBLIC_TOKEN: hope.publicToken,
        GIVEKIT_DATA_DIR: dataDir,
        GIVEKIT_RECONCILE_INTERVAL_S: "0",
        GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
      },
      "stderr",
      PROXY_NODE_ARGS,
    );
    const pid = proxy.child.pid!;

    // Cold: from the first page view to the first figures, health timed throughout.
    await loopDelay(proxy.url);
    const probes = probeHealth(proxy.url);
    started = performance.now();
    let cold503s = 0;
    let figures: { raised: string; donors: number } | undefined;
    while (performance.now() - started < COLD_LIMIT_MS) {
      const reply = await fetch(proxy.url + PROGRESS_PATH);
      const text = await reply.text();
      if (reply.status === 200) {
        figures = JSON.parse(text) as { raised: string; donors: number };
        break;
      }
      cold503s++;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const coldMs = performance.now() - started;
    const coldHealthMaxMs = (await probes.stop()).max;
    const coldLoop = await loopDelay(proxy.url);
    const afterCold = memoryOf(pid);

    // Warm: one page view after another.
    const times: number[] = [];
    let progressBytes = 0;
    for (let index = 0; index < WARM_REQUESTS; index++) {
      const at = performance.now();
      const reply = await fetch(proxy.url + PROGRESS_PATH);
      progressBytes = (await reply.arrayBuffer()).byteLength;
      if (reply.status !== 200) throw new Error(`warm progress answered ${reply.status}`);
      times.push(performance.now() - at);
    }
    const afterWarm = memoryOf(pid);
    const totals = (await (
      await fetch(`${sandbox.url}/_sandbox/totals?shortcode=71777&keyword=HOPE`)
    ).json()) as {
      raised: string;
      donors: number;
    };

    // The reconciler: one unknown $25.00 attempt among the account's $25.00 gifts.
    const reference = `gk_bench${gifts}`;
    const login = (await (
      await fetch(`${sandbox.url}/api/v2/users/login_with_auth_token`, {
        method: "POST",
        headers: {
          Authorization: formatAuthorization(hope.privateToken, "private"),
          "Content-Type": "application/json",
        },
        body: "{}",
      })
    ).json()) as { user: { session_token: string } };
    const createdAt = new Date().toISOString();
    await fetch(`${sandbox.url}/api/v2/donations/donate`, {
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
    const attempt = {
      reference,
      shortcode: "71777",
      keyword: "HOPE",
      amount: "25.00",
      fee_amount: "0.00",
      recurring_frequency: null,
      created_at: createdAt,
      state: "unknown",
      transaction_id: null,
    } as unknown as AttemptRecord;
    let result = "unknown";
    const upstream = createUpstreamClient({
      baseUrl: sandbox.url,
      privateToken: hope.privateToken,
      publicToken: hope.publicToken,
      connectTimeoutMs: 3000,
      timeoutMs: 15_000,
    });
    const reconciler = createReconciler({
      store: {
        listAttempts: async (filter) => (filter.state === "unknown" && result === "unknown" ? [attempt] : []),
        leaseReconcile: async () => true,
        releaseReconcile: async () => undefined,
        resolveUnknown: async (_reference, outcome) => ((result = outcome.state), true),
        noteUnknown: async () => undefined,
        claimedTransactions: async () => [],
      },
      upstream,
      settleS: 900,
    });
    started = performance.now();
    const steps = await reconciler.pass();
    const reconcileMs = performance.now() - started;
    upstream.close();

    return {
      gifts,
      bulkMs: round(bulkMs, 0),
      reportBytes: report.bytes,
      reportMs: round(reportMs, 0),
      coldMs: round(coldMs, 0),
      cold503s,
      warmMedianMs: round(median(times), 2),
      warmP95Ms: round(percentile(times, 0.95), 2),
      progressBytes,
      equalsSandbox: figures?.raised === totals.raised && figures?.donors === totals.donors,
      proxyPeakMb: afterCold.peak,
      proxyRssMb: afterWarm.rss,
      reconcileMs: round(reconcileMs, 0),
      reconcileResult: steps[0]?.result ?? "none",
      coldLoopP99Ms: round(coldLoop.p99),
      coldLoopMaxMs: round(coldLoop.max),
      coldHealthMaxMs: round(coldHealthMaxMs),
    };
  } finally {
    await proxy?.stop();
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const print = (line: string) => process.stdout.write(`${line}\n`);

/** The scale-of-gifts part of `npm run bench`: prints one line per size and returns the figures. */
export async function benchScaleGifts(
  sizes: readonly number[] = sizesFromEnv(),
): Promise<ScaleGiftsFigures[]> {
  print(
    "\nScale of gifts (sandbox account over 30 days; proxy and sandbox each a program of its own, under tsx)",
  );
  const all: ScaleGiftsFigures[] = [];
  for (const gifts of sizes) {
    const figures = await measure(gifts);
    all.push(figures);
    print(
      `  ${gifts.toLocaleString("en-US").padStart(9)} gifts: bulk ${figures.bulkMs} ms; report ${(figures.reportBytes / 1e6).toFixed(1)} MB in ${figures.reportMs} ms; ` +
        `progress cold ${figures.coldMs} ms (${figures.cold503s} × 503 first; event-loop delay p99 ${figures.coldLoopP99Ms} ms max ${figures.coldLoopMaxMs} ms, health max ${figures.coldHealthMaxMs} ms), warm median ${figures.warmMedianMs} ms p95 ${figures.warmP95Ms} ms, ` +
        `${figures.progressBytes} B, equals the sandbox's totals: ${figures.equalsSandbox ? "yes" : "NO"}; ` +
        `proxy peak ${figures.proxyPeakMb} MB, ${figures.proxyRssMb} MB warm; reconciler ${figures.reconcileMs} ms (${figures.reconcileResult})`,
    );
  }
  return all;
}

function sizesFromEnv(): number[] {
  const listed = process.env.BENCH_SCALE_SIZES;
  return listed ? listed.split(",").map((size) => Number(size.trim())) : DEFAULT_SIZES;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await benchScaleGifts();
  process.exitCode = figures.every((each) => each.equalsSandbox && each.reconcileResult === "succeeded")
    ? 0
    : 1;
}
