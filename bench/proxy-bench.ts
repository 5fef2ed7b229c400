/**
 * `npm run bench`: the proxy's own cost, on loopback, bounded in time.
 *
 * 1. The subscribe path (POST /v1/subscriptions) through a bare node:http forwarder and
 *    through the proxy, both in front of an instant upstream stub: throughput ratio, p99 and
 *    CPU time per request. The two take turns for BENCH_ROUNDS rounds and the medians are
 *    compared, so a slow spell of the (shared) machine does not fall on one side only.
 * 2. The same path through the proxy in front of the sandbox.
 * 3. Donations per second through the full path (POST /v1/payment-tokens, then
 *    POST /v1/donations with a fresh Idempotency-Key), in front of the stub and the sandbox.
 * 4. The same donation path in front of the stub through one proxy on SQLite, one on
 *    PostgreSQL and two on one PostgreSQL (clients spread over both), taking turns for
 *    BENCH_ROUNDS rounds: donations/s, the donation request's p50 and p99 as the client saw
 *    them, and the database's share of the proxy's time on a donation (`storeMs` / `ms` from
 *    its log lines). PostgreSQL is BENCH_DATABASE_URL's, or an embedded server (fsync on).
 * The proxy's peak RSS and every server's CPU time are read from /proc. Every server runs as its
 * own process; the proxy, the forwarder and the stub are compiled first (Vite's SSR build) and
 * run by plain node, as a deployment would run them (under tsx, its TypeScript loader thread
 * alone adds ~35 MB).
 *
 * Environment: BENCH_DURATION_S (6 per measured run), BENCH_ROUNDS (3), BENCH_WARMUP_S (3),
 * BENCH_CONNECTIONS (16), BENCH_DATABASE_URL (a PostgreSQL whose user may create databases),
 * 5. Crowds and card testers (test/helpers/crowds.ts) against the proxy's defaults, one proxy on
 *    SQLite and two on one PostgreSQL: good cards charged in a gala and a giving-day peak, and
 *    bot donations that reached the upstream (about 90 s, in real time; printed, not judged);
 *    then testers that solve every challenge against the circuit breakers, printed as the table
 *    proxy/GUIDE.md shows ("Circuit breakers", about 3 minutes more).
 * BENCH_ONLY (the parts to run, comma-separated: `proxy`, parts 1 to 3; `stores`, part 4; `crowds`,
 * part 5; `browser`, a donor's wait and bytes in Chromium (bench/browser.ts); `forms`, a saved form
 * beside the same form in attributes (bench/saved-form.ts); `challenge`, part 6;
 * `scale`, part 7; unset: all; PARTS below).
 * Every figure is printed beside its target and its guard (bench/baseline.json, bench/verdict.ts):
 * a missed target is marked; the exit code is 1 only when a figure regresses past its guard.
 */
import { browserBench } from "./browser";
import { challengeBench } from "./challenge";
import { savedFormBench } from "./saved-form";
import { benchScaleGifts } from "./scale-gifts";
import { benchScaleJobs } from "./scale-jobs";
import { scalePeersBench } from "./scale-peers";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { Client } from "pg";
import { build } from "vite";
import baseline from "./baseline.json" with { type: "json" };
import { cleanUpOnEveryExit, startServer, stopChild, stopChildren } from "./children";
import { keepAliveAgent, post, type Answer } from "./http-client";
import type { BenchPart, BenchRun } from "./part";
import { judge, type Baseline } from "./verdict";
import { FORM_SESSION_FIELD } from "../contract/api";
import { createFormSessions } from "../proxy/defence/form-session";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../sandbox/fixture";
import {
  AFTER_SCENARIO_NAMES,
  BESIDE_SCENARIO_NAMES,
  REPEATER_SCENARIO_NAMES,
  PATIENT_SCENARIO_NAMES,
  BREAKER_SCENARIO_NAMES,
  figuresTable,
  DEFENCE_SCENARIO_NAMES,
  SOLVING_SCENARIO_NAMES,
  describeFigures,
  runAllScenarios,
  type ProxyLauncher,
  type ScenarioFigures,
  startCrowdStack,
} from "../test/helpers/crowds";
import { startEmbeddedPostgres } from "../test/helpers/postgres-global";
import { startFakeTurnstileProgram } from "../test/helpers/sandbox-process";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DURATION_S = Number(process.env.BENCH_DURATION_S || 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S || 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 16);
/** The store comparison's set rate: a campaign day's busiest minute many times over. */
const DONATION_RATE = Number(process.env.BENCH_DONATION_RATE || 100);
/** The parts to run, by name, comma-separated (PARTS below); unset: all, in order. */
const ONLY = process.env.BENCH_ONLY;
/**
 * Where the compiled servers go (inside the repository, so their imports find node_modules): a
 * folder for this run, so two runs in one checkout never build over each other's servers.
 */
const BUILDS_DIR = join(ROOT, "node_modules/.cache/givekit-bench");
const BUILD_DIR = join(BUILDS_DIR, `run-${process.pid}`);

const TARGET_RATIO = (baseline as Baseline).figures.throughput_ratio!.target!;
const SIGNING_SECRET = "bench-signing-secret-bench-signing-secret";
/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/** Limits high enough that a benchmark never meets them; raised through configuration only. */
const BENCH_LIMITS = {
  GIVEKIT_RATE_PAYMENT_TOKENS: "1000000",
  GIVEKIT_RATE_DONATIONS: "1000000",
  GIVEKIT_RATE_SUBSCRIPTIONS: "1000000",
  // Every proxy signs form sessions with this key, and one session serves every request.
  GIVEKIT_SIGNING_SECRET: SIGNING_SECRET,
  GIVEKIT_FORM_SESSION_TOKENIZATIONS: "1000000",
  GIVEKIT_FORM_SESSION_CARDS: "1000000",
  // One card over and over from one address is a card-testing pattern: defence mode stays off.
  GIVEKIT_DEFENCE_TOKENS_PER_MIN: "1000000",
  GIVEKIT_DEFENCE_CARDS_PER_MIN: "1000000",
  GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN: "1000000",
  GIVEKIT_DEFENCE_CAMPAIGN_CARDS_PER_MIN: "1000000",
};

const HOPE = loadFixtureFile(DEMO_FIXTURE_PATH).accounts[0]!;

const SUBSCRIBE_BODY = JSON.stringify({
  // A real area code (555-01xx is reserved for fiction): what real traffic looks like.
  mobilenumber: "(415) 555-0132",
  list: "Hope Alerts",
  firstname: "Ana",
  lastname: "Doe",
  consent: true,
  consent_text:
    "I agree to receive recurring automated text messages from Hope Shelter. Msg & data rates may apply.",
});
/**
 * As the card frame sends it: its campaign, and a form session a minute old (a bot's, younger than
 * GIVEKIT_MIN_FORM_MS, is refused), signed with the proxies' key as POST /v1/form-sessions signs it.
 */
const BENCH_SESSION = (
  await createFormSessions(
    {
      minFormMs: 0,
      formSessionTtlS: 24 * 3600,
      formSessionTokenizations: 1,
      formSessionCards: 1,
      formSessionBulk: 20,
    },
    { secret: SIGNING_SECRET, counters: null, now: () => Date.now() - 60_000 },
  ).issue()
).form_session;
const CARD_BODY = JSON.stringify({
  card_number: "4242424242424242",
  cvv: "123",
  expiration_date: FUTURE_EXPIRY,
  shortcode: "71777",
  keyword: "HOPE",
  [FORM_SESSION_FIELD]: BENCH_SESSION,
});
const JSON_HEADERS = { "content-type": "application/json" };

const dataDirs: string[] = [];

function say(text = ""): void {
  process.stdout.write(`${text}\n`);
}

let compiling: Promise<void> | undefined;

/** The path of a program compiled for this run; the first call compiles them all. */
async function compiled(name: "proxy" | "forwarder" | "upstream-stub"): Promise<string> {
  await (compiling ??= compile());
  return join(BUILD_DIR, `${name}.js`);
}

/** Compiles the proxy, the forwarder and the stub to plain JavaScript (and drops the builds of runs gone). */
async function compile(): Promise<void> {
  mkdirSync(BUILDS_DIR, { recursive: true });
  for (const entry of readdirSync(BUILDS_DIR)) {
    const pid = Number(/^run-(\d+)$/.exec(entry)?.[1]);
    if (!pid || !alive(pid)) rmSync(join(BUILDS_DIR, entry), { recursive: true, force: true });
  }
  await build({
    configFile: false,
    logLevel: "warn",
    root: ROOT,
    build: {
      ssr: true,
      outDir: BUILD_DIR,
      emptyOutDir: true,
      target: "node20",
      minify: false,
      copyPublicDir: false,
      rollupOptions: {
        input: {
          proxy: join(ROOT, "proxy/server.ts"),
          forwarder: join(ROOT, "bench/forwarder.ts"),
          "upstream-stub": join(ROOT, "bench/upstream-stub.ts"),
        },
      },
    },
  });
}

/** Whether a process of that id is running (a run of the bench that left its build behind). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Starts a program as a child of the bench; resolves with its URL once it prints "listening on". */
function start(args: string[], env: Record<string, string>, onLine?: (line: string) => void) {
  return startServer(args, env, { cwd: ROOT, onLine });
}

async function startProxy(
  upstreamUrl: string,
  privateToken: string,
  publicToken: string,
  extra: Record<string, string> = {},
  onLine?: (line: string) => void,
) {
  return start(
    [await compiled("proxy")],
    { ...BENCH_LIMITS, ...compiledProxyEnv(upstreamUrl, privateToken, publicToken), ...extra },
    onLine,
  );
}

/** The compiled proxy's environment: on loopback, a data directory of its own, this upstream. */
function compiledProxyEnv(upstreamUrl: string, privateToken: string, publicToken: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "givekit-bench-"));
  dataDirs.push(dataDir);
  return {
    // The compiled file lives elsewhere: name the repository's files explicitly.
    GIVEKIT_CAMPAIGNS: join(ROOT, "proxy/campaigns.demo.json"),
    GIVEKIT_WIDGET_DIR: join(ROOT, "dist/widget"),
    PORT: "0",
    HOST: "127.0.0.1",
    UPSTREAM_BASE_URL: upstreamUrl,
    UPSTREAM_PRIVATE_TOKEN: privateToken,
    UPSTREAM_PUBLIC_TOKEN: publicToken,
    GIVEKIT_DATA_DIR: dataDir,
  };
}

/** Peak resident set size of a process, in MB (Linux: VmHWM). */
function peakRssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** CPU seconds a process (all its threads) has used so far (Linux: utime + stime). */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  bad: number;
  /** CPU time of the measured server per request, µs. */
  cpuUs: number;
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One row of medians over several measured runs of the same server. */
function medianFigures(runs: Figures[]): Figures {
  return {
    name: runs[0]!.name,
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    total: runs.reduce((sum, run) => sum + run.total, 0),
    bad: runs.reduce((sum, run) => sum + run.bad, 0),
    cpuUs: median(runs.map((run) => run.cpuUs)),
  };
}

async function measure(
  name: string,
  server: { url: string; child: ChildProcess },
  path: string,
  body: string,
  warmup: boolean,
): Promise<Figures> {
  const url = server.url;
  const options = {
    url: url + path,
    method: "POST" as const,
    headers: JSON_HEADERS,
    body,
    connections: CONNECTIONS,
  };
  if (warmup) await autocannon({ ...options, duration: WARMUP_S });
  const cpuBefore = cpuSeconds(server.child.pid);
  const result = await autocannon({ ...options, duration: DURATION_S });
  const cpuUsed = cpuSeconds(server.child.pid) - cpuBefore;
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    // autocannon's errors include its timeouts: each failed request counted once.
    bad: result.non2xx + result.errors,
    cpuUs: (cpuUsed * 1e6) / Math.max(1, result.requests.total),
  };
}

/** Payment token then donation, over and over on every connection; counts successful donations. */
async function donations(name: string, url: string): Promise<{ name: string; perS: number; failed: number }> {
  let succeeded = 0;
  let failed = 0;
  type Context = { token?: string };
  const run = (duration: number) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: "POST",
          path: "/v1/payment-tokens",
          headers: JSON_HEADERS,
          body: CARD_BODY,
          onResponse: (status, responseBody, context) => {
            // A refused tokenization is a failure of its own, whatever the stub then does with the donation.
            if (status !== 201) failed++;
            (context as Context).token =
              status === 201 ? (JSON.parse(responseBody) as { token: string }).token : "";
          },
        },
        {
          method: "POST",
          path: "/v1/donations",
          setupRequest: (request, context) => ({
            ...request,
            headers: { ...JSON_HEADERS, "idempotency-key": randomUUID() },
            body: JSON.stringify({
              shortcode: "71777",
              keyword: "HOPE",
              amount: "25.00",
              cover_fee: true,
              donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org" },
              credit_card_token: (context as Context).token || "tok_missing",
            }),
          }),
          onResponse: (status) => {
            if (status === 200) succeeded++;
            else failed++;
          },
        },
      ],
    });
  await run(WARMUP_S);
  succeeded = 0;
  failed = 0;
  const result = await run(DURATION_S);
  // A request that got no answer at all (a connection error or a timeout) failed too.
  return { name, perS: succeeded / DURATION_S, failed: failed + result.errors };
}

/** Sums of the proxies' own donation log lines: request time and time waiting for the store. */
interface StoreTime {
  ms: number;
  storeMs: number;
}

function donationTimes(times: StoreTime): (line: string) => void {
  return (line) => {
    if (!line.includes('"path":"/v1/donations"')) return;
    const entry = JSON.parse(line) as { ms?: number; storeMs?: number };
    times.ms += entry.ms ?? 0;
    times.storeMs += entry.storeMs ?? 0;
  };
}

interface StoreFigures {
  name: string;
  perS: number;
  p50: number;
  p99: number;
  dbShare: number;
  /** CPU time per donation (payment token included) of the proxies, and of PostgreSQL's processes. */
  proxyCpuUs: number;
  dbCpuUs: number;
  failed: number;
  /** Why the failed requests failed (`status 503 on /v1/donations`, `ECONNRESET on …`): how many of each. */
  why: Record<string, number>;
  /** Requests sent again on a new connection (the kept-alive one closed under them; see `post`). */
  resent: number;
}

/** CPU seconds used so far by every PostgreSQL process on this machine (its backends included). */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres")
        total += cpuSeconds(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** How the donation path is driven: clients each in a loop (as fast as it goes), or arrivals at a set rate. */
type Load = { clients: number } | { perS: number };

/**
 * Payment token then donation, spread over the proxies, under `load`; the donation request's
 * latency as the client saw it. At a set rate each donor arrives on time whether or not the
 * ones before have their answer (an open loop), so a slow answer cannot hide the ones behind it.
 */
async function donationPath(
  name: string,
  proxies: { child: ChildProcess; url: string }[],
  times: StoreTime[],
  load: Load,
): Promise<StoreFigures> {
  const urls = proxies.map((proxy) => proxy.url);
  const proxyCpu = () => proxies.reduce((sum, proxy) => sum + cpuSeconds(proxy.child.pid), 0);
  const agent = keepAliveAgent("clients" in load ? load.clients : 256);
  const run = async (durationS: number) => {
    const latencies: number[] = [];
    let failed = 0;
    let resent = 0;
    const why: Record<string, number> = {};
    const fail = (path: string, answer: Answer) => {
      failed++;
      const reason = answer.error ?? `status ${answer.status} on ${path}`;
      why[reason] = (why[reason] ?? 0) + 1;
    };
    const donate = async (url: string) => {
      const token = await post(agent, url, "/v1/payment-tokens", CARD_BODY);
      if (token.resent) resent++;
      if (token.status !== 201) {
        fail("/v1/payment-tokens", token);
        return;
      }
      const started = performance.now();
      const donation = await post(
        agent,
        url,
        "/v1/donations",
        JSON.stringify({
          shortcode: "71777",
          keyword: "HOPE",
          amount: "25.00",
          cover_fee: true,
          donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org" },
          credit_card_token: (JSON.parse(token.text) as { token: string }).token,
        }),
        { "idempotency-key": randomUUID() },
      );
      if (donation.resent) resent++;
      if (donation.status === 200) latencies.push(performance.now() - started);
      else fail("/v1/donations", donation);
    };
    const until = performance.now() + durationS * 1000;
    if ("clients" in load) {
      await Promise.all(
        Array.from({ length: load.clients }, async (_, client) => {
          while (performance.now() < until) await donate(urls[client % urls.length]!);
        }),
      );
    } else {
      const arrivals: Promise<void>[] = [];
      const gapMs = 1000 / load.perS;
      const begun = performance.now();
      for (let n = 0; begun + n * gapMs < until; n++) {
        const due = begun + n * gapMs - performance.now();
        if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
        arrivals.push(donate(urls[n % urls.length]!));
      }
      await Promise.all(arrivals);
    }
    return { latencies, failed, why, resent };
  };
  await run(WARMUP_S);
  for (const time of times) Object.assign(time, { ms: 0, storeMs: 0 });
  const [proxyBefore, dbBefore] = [proxyCpu(), postgresCpuSeconds()];
  const { latencies, failed, why, resent } = await run(DURATION_S);
  const perDonationUs = (seconds: number) => (Math.max(0, seconds) * 1e6) / Math.max(1, latencies.length);
  agent.destroy();
  const sorted = latencies.toSorted((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const totalMs = times.reduce((sum, time) => sum + time.ms, 0);
  const storeMs = times.reduce((sum, time) => sum + time.storeMs, 0);
  return {
    name,
    perS: latencies.length / DURATION_S,
    p50: at(0.5),
    p99: at(0.99),
    dbShare: totalMs > 0 ? storeMs / totalMs : Number.NaN,
    proxyCpuUs: perDonationUs(proxyCpu() - proxyBefore),
    dbCpuUs: perDonationUs(postgresCpuSeconds() - dbBefore),
    failed,
    why,
    resent,
  };
}

function medianStoreFigures(runs: StoreFigures[]): StoreFigures {
  return {
    name: runs[0]!.name,
    perS: median(runs.map((run) => run.perS)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    dbShare: median(runs.map((run) => run.dbShare)),
    proxyCpuUs: median(runs.map((run) => run.proxyCpuUs)),
    dbCpuUs: median(runs.map((run) => run.dbCpuUs)),
    failed: runs.reduce((sum, run) => sum + run.failed, 0),
    resent: runs.reduce((sum, run) => sum + run.resent, 0),
    why: runs.reduce<Record<string, number>>((sum, run) => {
      for (const [reason, count] of Object.entries(run.why)) sum[reason] = (sum[reason] ?? 0) + count;
      return sum;
    }, {}),
  };
}

/** A PostgreSQL for the store comparison: BENCH_DATABASE_URL's, or an embedded one. */
async function benchPostgres(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  if (process.env.BENCH_DATABASE_URL)
    return { adminUrl: process.env.BENCH_DATABASE_URL, stop: async () => {} };
  const server = await startEmbeddedPostgres({ durable: true });
  return { adminUrl: server.url, stop: server.stop };
}

/** A new database on the server; its URL. */
async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let stopPostgres: (() => Promise<void>) | undefined;
let postgresAdminUrl: string | undefined;

/** The run's PostgreSQL, started by the first part that needs it; its admin URL. */
async function sharedPostgres(): Promise<string> {
  if (postgresAdminUrl) return postgresAdminUrl;
  const postgres = await benchPostgres();
  stopPostgres = postgres.stop;
  postgresAdminUrl = postgres.adminUrl;
  return postgresAdminUrl;
}

const pgEnv = (url: string) => ({
  DATABASE_URL: url,
  GIVEKIT_SIGNING_SECRET: SIGNING_SECRET,
  LOG_LEVEL: "info",
});

const ms = (value: number) => `${value.toFixed(1)} ms`;
const rounds = () => (ROUNDS === 1 ? "1 round" : `${ROUNDS} rounds`);

/** The subscribe path and the donations through the proxy (parts 1 to 3); their figures. */
async function measureProxy(run: BenchRun): Promise<Record<string, number>> {
  const stub = await run.stub();
  const forwarder = await start([await compiled("forwarder"), stub.url], {});
  const proxy = await startProxy(stub.url, "bench-private", "bench-public");
  const sandbox = await start(["--import", "tsx", "sandbox/server.ts"], {
    SANDBOX_PORT: "0",
    SANDBOX_DB: ":memory:",
  });
  const proxyToSandbox = await startProxy(sandbox.url, HOPE.privateToken, HOPE.publicToken);

  const floorRuns: Figures[] = [];
  const ownRuns: Figures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const warmup = round === 0;
    floorRuns.push(await measure("forwarder → stub", forwarder, "/v1/subscriptions", SUBSCRIBE_BODY, warmup));
    ownRuns.push(await measure("proxy → stub", proxy, "/v1/subscriptions", SUBSCRIBE_BODY, warmup));
  }
  const floor = medianFigures(floorRuns);
  const own = medianFigures(ownRuns);
  const real = await measure("proxy → sandbox", proxyToSandbox, "/v1/subscriptions", SUBSCRIBE_BODY, true);
  const donateStub = await donations("proxy → stub", proxy.url);
  const donateSandbox = await donations("proxy → sandbox", proxyToSandbox.url);
  const rss = Math.max(peakRssMb(proxy.child.pid), peakRssMb(proxyToSandbox.child.pid));
  // These stop before the next part, so they take no CPU from it.
  await Promise.all([forwarder, proxy, sandbox, proxyToSandbox].map((server) => stopChild(server.child)));

  const ratios = floorRuns.map((floorRun, round) => ownRuns[round]!.rps / floorRun.rps);
  say("subscribe path (POST /v1/subscriptions), each round");
  for (let round = 0; round < ROUNDS; round++) {
    const [f, p] = [floorRuns[round]!, ownRuns[round]!];
    say(
      `  round ${round + 1}: forwarder ${f.rps.toFixed(0)} req/s (${f.cpuUs.toFixed(0)} µs CPU/req), proxy ${p.rps.toFixed(0)} req/s (${p.cpuUs.toFixed(0)} µs CPU/req), ratio ${ratios[round]!.toFixed(2)}`,
    );
  }
  say();
  say(`subscribe path: medians of ${rounds()} (proxy → sandbox: one run)`);
  say(
    `  ${"".padEnd(18)} ${"req/s".padStart(9)} ${"p50".padStart(9)} ${"p99".padStart(9)} ${"CPU/req".padStart(9)} ${"requests".padStart(9)} ${"non-2xx".padStart(8)}`,
  );
  for (const row of [floor, own, real]) {
    say(
      `  ${row.name.padEnd(18)} ${row.rps.toFixed(0).padStart(9)} ${ms(row.p50).padStart(9)} ${ms(row.p99).padStart(9)} ${`${row.cpuUs.toFixed(0)} µs`.padStart(9)} ${String(row.total).padStart(9)} ${String(row.bad).padStart(8)}`,
    );
  }
  say();
  say("donations (POST /v1/payment-tokens + POST /v1/donations)");
  for (const row of [donateStub, donateSandbox]) {
    say(`  ${row.name.padEnd(18)} ${row.perS.toFixed(0).padStart(9)} donations/s   (${row.failed} not 200)`);
  }
  say();
  // Both servers are CPU-bound here: the ratio needs the proxy's CPU per request within this.
  const budgetUs = floor.cpuUs / TARGET_RATIO;
  say(
    `  CPU budget for the ratio: ≤ ${budgetUs.toFixed(0)} µs per request (forwarder ${floor.cpuUs.toFixed(0)} µs / ${TARGET_RATIO}); the proxy used ${own.cpuUs.toFixed(0)} µs`,
  );
  say();
  return {
    throughput_ratio: median(ratios),
    p99_over_forwarder_ms: own.p99 - floor.p99,
    cpu_ratio_subscribe: own.cpuUs / floor.cpuUs,
    cpu_per_subscribe_us: own.cpuUs,
    peak_rss_mb: rss,
    donations_per_s_sandbox: donateSandbox.perS,
    non_2xx:
      [floor, own, real].reduce((sum, row) => sum + row.bad, 0) + donateStub.failed + donateSandbox.failed,
  };
}

/** Part 4: the donation path through one proxy on SQLite, one and two on PostgreSQL; its figures. */
async function measureStores(run: BenchRun): Promise<Record<string, number>> {
  const stub = await run.stub();
  const adminUrl = await run.postgres();
  const oneDb = await createDatabase(adminUrl, "givekit_bench_one");
  const twoDb = await createDatabase(adminUrl, "givekit_bench_two");
  const times = Array.from({ length: 4 }, (): StoreTime => ({ ms: 0, storeMs: 0 }));
  const onSqlite = await startProxy(stub.url, "bench-private", "bench-public", {}, donationTimes(times[0]!));
  const onPg = await startProxy(
    stub.url,
    "bench-private",
    "bench-public",
    pgEnv(oneDb),
    donationTimes(times[1]!),
  );
  const pgPair = [
    await startProxy(stub.url, "bench-private", "bench-public", pgEnv(twoDb), donationTimes(times[2]!)),
    await startProxy(stub.url, "bench-private", "bench-public", pgEnv(twoDb), donationTimes(times[3]!)),
  ];
  const setups = [
    { name: "1 proxy, SQLite", proxies: [onSqlite], times: [times[0]!] },
    { name: "1 proxy, PostgreSQL", proxies: [onPg], times: [times[1]!] },
    { name: "2 proxies, PostgreSQL", proxies: pgPair, times: [times[2]!, times[3]!] },
  ];
  const loads: { title: string; load: Load }[] = [
    { title: `at ${DONATION_RATE} donations/s`, load: { perS: DONATION_RATE } },
    { title: `as fast as it goes (${CONNECTIONS} clients, each in a loop)`, load: { clients: CONNECTIONS } },
  ];
  // Every setup under every load in each round, taking turns, so a slow spell falls on all.
  const runs = loads.map(() => setups.map((): StoreFigures[] => []));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [l, { load }] of loads.entries()) {
      for (const [k, setup] of setups.entries())
        runs[l]![k]!.push(await donationPath(setup.name, setup.proxies, setup.times, load));
    }
  }
  await Promise.all([onSqlite, onPg, ...pgPair].map((proxy) => stopChild(proxy.child)));
  const [atRate, saturated] = runs.map((byLoad) => byLoad.map(medianStoreFigures));
  for (const [l, { title }] of loads.entries()) {
    say(`donation path by store, in front of the stub, ${title}: medians of ${rounds()}`);
    say(
      `  ${"".padEnd(22)} ${"donations/s".padStart(12)} ${"p50".padStart(9)} ${"p99".padStart(9)} ${"DB share".padStart(9)} ${"proxy CPU".padStart(10)} ${"DB CPU".padStart(9)} ${"not 200".padStart(8)}`,
    );
    for (const row of [atRate, saturated][l]!) {
      say(
        `  ${row.name.padEnd(22)} ${row.perS.toFixed(0).padStart(12)} ${ms(row.p50).padStart(9)} ${ms(row.p99).padStart(9)} ${`${(row.dbShare * 100).toFixed(0)} %`.padStart(9)} ${`${row.proxyCpuUs.toFixed(0)} µs`.padStart(10)} ${`${row.dbCpuUs.toFixed(0)} µs`.padStart(9)} ${String(row.failed).padStart(8)}`,
      );
    }
    for (const row of [atRate, saturated][l]!) {
      const why = Object.entries(row.why).map(([reason, count]) => `${count} × ${reason}`);
      if (why.length) say(`  not 200, ${row.name}: ${why.join(", ")}`);
      if (row.resent)
        say(
          `  sent again on a new connection, ${row.name}: ${row.resent} (a kept-alive one closed under them)`,
        );
    }
    say();
  }
  say("  (CPU: per donation with its payment token, the proxies' and PostgreSQL's processes)");
  say();
  return {
    donation_p99_pg_over_sqlite_ms: atRate![1]!.p99 - atRate![0]!.p99,
    donation_p99_pg_over_sqlite_saturated_ms: saturated![1]!.p99 - saturated![0]!.p99,
    donations_per_s_pg_over_sqlite: saturated![1]!.perS / saturated![0]!.perS,
    non_2xx: [...atRate!, ...saturated!].reduce((sum, row) => sum + row.failed, 0),
  };
}

/**
 * A crowd's proxy as a program of its own, compiled as the bench runs every proxy, with the
 * defaults the crowd asks for (no bench limits): the crowd's clients in this process never slow
 * its event loop, as in the crowd test.
 */
const compiledProxy: ProxyLauncher = async (upstreamUrl, env) => {
  const lines: string[] = [];
  const proxy = await start(
    [await compiled("proxy")],
    { ...compiledProxyEnv(upstreamUrl, HOPE.privateToken, HOPE.publicToken), ...env },
    (line) => lines.push(line),
  );
  return { url: proxy.url, logs: () => lines, close: () => stopChild(proxy.child) };
};

/**
 * Part 5: the crowd scenarios with the defaults, as test/proxy/defence/crowds.test.ts runs them
 * (without a challenge), each against a sandbox of its own; printed, not judged (the test holds
 * the bounds).
 */
async function measureCrowds(run: BenchRun): Promise<Record<string, number>> {
  say("crowds and card testers, the proxy's defaults (test/helpers/crowds.ts; about 4 minutes)");
  const adminUrl = await run.postgres();
  let n = 0;
  // Side by side, with each set-up's testers in a moment of its own (one machine, two cores).
  const [sqlite, postgres] = await Promise.all([
    runAllScenarios(() => startCrowdStack({}), { "bot-spread": 2, burst: 10 }),
    runAllScenarios(
      async () => startCrowdStack({ databaseUrl: await createDatabase(adminUrl, `givekit_crowd_${n++}`) }),
      { "bot-spread": 20, burst: 30 },
    ),
  ]);
  for (const figures of sqlite) say(`  ${describeFigures("one proxy, SQLite:", figures)}`);
  for (const figures of postgres) say(`  ${describeFigures("two proxies, PostgreSQL:", figures)}`);
  // Then the testers and the griefer, and the testers again paying every challenge (up to 3 minutes each).
  const defence = [...DEFENCE_SCENARIO_NAMES, ...SOLVING_SCENARIO_NAMES];
  const starts = { stockpile: 5, distributed: 10, "stockpile-solving": 15, "distributed-solving": 20 };
  const [sqliteDefence, postgresDefence] = await Promise.all([
    runAllScenarios(() => startCrowdStack({}), starts, defence),
    runAllScenarios(
      async () => startCrowdStack({ databaseUrl: await createDatabase(adminUrl, `givekit_crowd_${n++}`) }),
      starts,
      defence,
    ),
  ]);
  for (const figures of sqliteDefence) say(`  ${describeFigures("one proxy, SQLite:", figures)}`);
  for (const figures of postgresDefence) say(`  ${describeFigures("two proxies, PostgreSQL:", figures)}`);
  // Then testers that solve every challenge and invent a donor per card, against the circuit
  // breakers, alone and beside a gala and a giving day (up to 3 minutes).
  const breakers = [...BREAKER_SCENARIO_NAMES, ...BESIDE_SCENARIO_NAMES];
  const [sqliteBreakers, postgresBreakers] = await Promise.all([
    runAllScenarios(() => startCrowdStack({}), {}, breakers),
    runAllScenarios(
      async () => startCrowdStack({ databaseUrl: await createDatabase(adminUrl, `givekit_crowd_${n++}`) }),
      {},
      breakers,
    ),
  ]);
  for (const figures of sqliteBreakers) say(`  ${describeFigures("one proxy, SQLite:", figures)}`);
  for (const figures of postgresBreakers) say(`  ${describeFigures("two proxies, PostgreSQL:", figures)}`);
  // Then testers at work for the breakers' whole window before a giving day or a gala begins and
  // through it (the patient tester coming back for each card held a moment), and a popular BIN's
  // crowd, each with a tester again under Turnstile (the window 90 s, the breakers' open period
  // with it): as the crowd test runs them, store after store (side by side, a load of 5 lost a
  // Turnstile giving day to its stand-in answering late), every proxy, sandbox and the Turnstile
  // stand-in a program of its own (about 7 minutes a store).
  const leadWindowS = 90;
  const after = [...AFTER_SCENARIO_NAMES, ...REPEATER_SCENARIO_NAMES, ...PATIENT_SCENARIO_NAMES];
  const withHuman = after.filter((name) => name !== "popular-bin");
  const turnstile = await startFakeTurnstileProgram();
  const leadStacks =
    (databaseUrl: () => Promise<string | undefined>, challenge?: Record<string, string>) => () =>
      databaseUrl().then((url) =>
        startCrowdStack({
          launch: compiledProxy,
          sandboxProgram: true,
          breakerWindowS: leadWindowS,
          ...(url ? { databaseUrl: url } : {}),
          ...(challenge ? { challenge } : {}),
        }),
      );
  // The Turnstile set after the defaults' set: both at once (fifteen stacks, thirty proxies on the
  // bench's durable PostgreSQL) held people 5-20 s where the test's eleven held them 2 s.
  const leadFirst = async (databaseUrl: () => Promise<string | undefined>) => [
    ...(await runAllScenarios(leadStacks(databaseUrl), {}, after, 2)),
    ...(await runAllScenarios(leadStacks(databaseUrl, turnstile.proxyEnv), {}, withHuman, 2)),
  ];
  const sqliteAfter = await leadFirst(async () => undefined);
  const postgresAfter = await leadFirst(async () => createDatabase(adminUrl, `givekit_crowd_${n++}`));
  await turnstile.close();
  const human = (figures: ScenarioFigures, i: number) =>
    i >= after.length ? { ...figures, scenario: `${figures.scenario} + Turnstile` } : figures;
  for (const [i, figures] of sqliteAfter.entries())
    say(`  ${describeFigures("one proxy, SQLite:", human(figures, i))}`);
  for (const [i, figures] of postgresAfter.entries())
    say(`  ${describeFigures("two proxies, PostgreSQL:", human(figures, i))}`);
  say(
    '  every scenario: people charged and their added wait (median / p95), what of the tester reached the upstream and its CPU s per card that did (proxy/GUIDE.md, "Circuit breakers"):',
  );
  say(
    figuresTable(
      [...sqlite, ...sqliteDefence, ...sqliteBreakers, ...sqliteAfter.map(human)],
      [...postgres, ...postgresDefence, ...postgresBreakers, ...postgresAfter.map(human)],
    ),
  );
  say();
  return {};
}

/**
 * The bench's parts, in the order a full run runs them. BENCH_ONLY names the ones to run
 * (comma-separated, e.g. `proxy,stores`); a part is a function of bench/part.ts's BenchPart type,
 * so adding one is a row here.
 */
const PARTS: Record<string, BenchPart> = {
  /** The subscribe path and the donations through the proxy (1 to 3 above). */
  proxy: measureProxy,
  /** The store comparison (4). */
  stores: measureStores,
  /** Crowds and card testers (5). */
  crowds: measureCrowds,
  /**
   * A donor's wait and bytes in Chromium (bench/browser.ts): the first step and the card field on
   * a slow 4G phone with 4x CPU, and a whole donation on the wire.
   */
  browser: async (run) => {
    const { rows, wire } = await browserBench({ log: run.say });
    const both = rows.find((row) => row.profile === "both");
    const { peers, noPeers } = both?.campaigns ?? {};
    return {
      ...(peers && {
        browser_first_step_ms: peers.firstStepMs,
        browser_card_ready_ms: peers.cardReadyMs,
      }),
      ...(noPeers && {
        browser_first_step_no_peers_ms: noPeers.firstStepMs,
        browser_card_ready_no_peers_ms: noPeers.cardReadyMs,
      }),
      ...(peers && both?.floorMs && { browser_first_step_over_floor: peers.firstStepMs / both.floorMs }),
      wire_donation_bytes: wire.received,
    };
  },
  /** A form saved in the dashboard's designer beside the same form in attributes, in Chromium (bench/saved-form.ts). */
  forms: async (run) => {
    const { firstStepMs } = await savedFormBench(run.say);
    return { saved_form_first_step_over_attributes: firstStepMs.saved / firstStepMs.attributes };
  },
  /** givekit's own challenge as a phone solves it in the card frame (6). */
  challenge: async (run) => challengeBench(run.say),
  /** Real accounts: gifts (progress, the reconciler), peers (the picker's search) and the background jobs at scale, the event loop's delay beside each (7). */
  scale: async (run) => {
    const gifts = await benchScaleGifts();
    const peers = await scalePeersBench(run.say);
    await benchScaleJobs(run.say);
    const largest = gifts.at(-1);
    return {
      scale_progress_warm_ms: largest?.warmMedianMs ?? 0,
      scale_peer_index_mb_per_10k: peers.indexMbPer10k,
    };
  },
};

/** The parts BENCH_ONLY names, in the table's order; all of them when it is unset. */
function chosenParts(): [string, BenchPart][] {
  if (!ONLY) return Object.entries(PARTS);
  const names = ONLY.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !Object.hasOwn(PARTS, name));
  if (unknown.length || !names.length)
    throw new Error(
      `BENCH_ONLY=${ONLY}: no part named ${unknown.join(", ") || "(none)"}; the parts are ${Object.keys(PARTS).join(", ")}`,
    );
  return Object.entries(PARTS).filter(([name]) => names.includes(name));
}

let stub: Promise<{ url: string }> | undefined;

const benchRun: BenchRun = {
  stub: () => (stub ??= compiled("upstream-stub").then((path) => start([path], {}))),
  postgres: sharedPostgres,
  compiled,
  say,
};

async function main(): Promise<void> {
  const parts = chosenParts();
  const cpu = cpus();
  say(
    `givekit proxy benchmark: ${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.version}`,
  );
  say(
    `${CONNECTIONS} connections, ${WARMUP_S} s warm-up, ${rounds()} of ${DURATION_S} s for forwarder and proxy in turn, loopback only`,
  );
  say();

  const measured: Record<string, number> = {};
  for (const [, part] of parts) {
    for (const [name, value] of Object.entries(await part(benchRun)))
      measured[name] = (measured[name] ?? 0) + value;
  }
  // A part left out (BENCH_ONLY) is not judged.
  const judged: Baseline = {
    ...(baseline as Baseline),
    figures: Object.fromEntries(
      Object.entries((baseline as Baseline).figures).filter(([name]) => name in measured),
    ),
  };
  const verdict = judge(measured, judged);
  say(`figures against bench/baseline.json (${(baseline as Baseline).measured_on})`);
  for (const line of verdict.lines) say(line);
  say();
  say(
    verdict.regressed
      ? `REGRESSED: ${verdict.regressions.join(", ")} past the guard.`
      : `No regression. ${verdict.missed.length ? `Targets still missed: ${verdict.missed.join(", ")}.` : "Every target met."}`,
  );
  process.exitCode = verdict.regressed ? 1 : 0;
}

/** Stops every child, then the run's PostgreSQL (the proxies let go of it first); removes the run's files. */
async function cleanUp(): Promise<void> {
  await stopChildren();
  await stopPostgres?.().catch(() => undefined);
  for (const dir of [...dataDirs, BUILD_DIR]) rmSync(dir, { recursive: true, force: true });
}

const exit = cleanUpOnEveryExit(cleanUp);
try {
  await main();
} catch (error) {
  if (!exit.stopping())
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await exit.cleanUp();
}
