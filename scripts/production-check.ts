/**
 * `npm run check:production`: givekit installed as a production host installs it, and run. A clean
 * clone of this checkout's HEAD (committed work only) in a temporary folder; `npm ci`,
 * `npm run build`, `npm prune --omit=dev`; then, with plain `node` and no dev dependency, every
 * `givekit` command, and `givekit serve` in front of a sandbox (run from this dev install): a
 * donation and an opt-in through it, its metrics read and checked, and SIGTERM during a donation
 * the sandbox never answers (999.99): the donation gets its answer, the proxy exits 0.
 *
 * Slow (npm ci builds better-sqlite3: a minute or two), so not part of `npm test`: .ci/run runs it
 * as a step of its own. Exits 1 at the first thing that is wrong, naming it. GIVEKIT_KEEP_CLONE=1
 * keeps the temporary folder.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO, startSandbox, type SandboxHandle } from "../test/helpers/sandbox";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const METRICS_TOKEN = "production-check-metrics-token";
const CONSENT_TEXT =
  "I agree to receive recurring automated text messages from Hope Shelter. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel.";
/** What the proxy gets to answer a donate the sandbox never answers: then 202 Pending. */
const UPSTREAM_TIMEOUT_MS = 2000;

/**
 * The Node that installs and runs the production copy: GIVEKIT_PRODUCTION_NODE (.ci/run's Node 24,
 * with npm_config_nodedir at its headers) or this one. This script, and the sandbox in it, stay on
 * the dev install's Node, whose better-sqlite3 they use.
 */
const APP_NODE = process.env.GIVEKIT_PRODUCTION_NODE || process.execPath;
const APP_PATH = `${dirname(APP_NODE)}${delimiter}${process.env.PATH ?? ""}`;

const started = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
function say(text: string): void {
  process.stdout.write(`${text}\n`);
}
class CheckFailed extends Error {}

/** What the proxy answers, as far as this check reads it. */
interface Answer {
  form_session?: string;
  token?: string;
  donation?: { status?: string };
}

/** A donation to the demo's HOPE campaign. */
const donation = (token: string, amount: string) => ({
  shortcode: "71777",
  keyword: "HOPE",
  amount,
  donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org" },
  credit_card_token: token,
});

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new CheckFailed(what);
  say(`  ✓ ${what}`);
}

/**
 * Runs a command to its end; throws with its output when it fails. Asynchronous: the sandbox
 * runs in this process and must answer the command meanwhile.
 */
async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const at = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  const shown = `${command} ${args.join(" ")}`;
  if (status !== 0) throw new CheckFailed(`${shown} exited ${status}:\n${stdout}\n${stderr}`);
  say(`  ✓ ${shown} (${seconds(at)})`);
  return { stdout, stderr };
}

/** The packages the compiled server imports: each must be installed and a runtime dependency. */
function importedPackages(dir: string): Set<string> {
  const found = new Set<string>();
  for (const name of readdirSync(dir, { recursive: true })) {
    if (!String(name).endsWith(".js")) continue;
    const text = readFileSync(join(dir, String(name)), "utf8");
    for (const match of text.matchAll(/(?:from\s*|import\s*\(?\s*)["']([^"'./][^"']*)["']/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith("node:") || builtinModules.includes(specifier)) continue;
      const parts = specifier.split("/");
      found.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
    }
  }
  return found;
}

const children: ChildProcess[] = [];
let sandbox: SandboxHandle | undefined;
const work = mkdtempSync(join(tmpdir(), "givekit-production-"));

async function main(): Promise<void> {
  const app = join(work, "givekit");
  const version = spawnSync(APP_NODE, ["--version"], { encoding: "utf8" }).stdout.trim();
  say(`givekit production check in ${work}, installed and run on Node ${version}`);

  say("1. a clean clone, installed for production");
  const reuse = process.env.GIVEKIT_REUSE_INSTALL;
  if (reuse) {
    // For working on this check: a folder a previous run kept (GIVEKIT_KEEP_CLONE=1).
    say(`  (reusing the install in ${reuse}: not cloned, installed or built again)`);
    cpSync(join(reuse, "givekit"), app, {
      recursive: true,
      verbatimSymlinks: true,
      preserveTimestamps: true,
    });
  } else {
    await run("git", ["clone", "--quiet", "--no-hardlinks", ROOT, app], work);
    const npmEnv = { ...process.env, PATH: APP_PATH };
    await run("npm", ["ci", "--no-audit", "--no-fund"], app, npmEnv);
    await run("npm", ["run", "build"], app, npmEnv);
    // The clone sits in a folder only its owner may enter (mkdtemp's 0700): the test PostgreSQL,
    // which as root runs as another user, must start from here too (it failed with EACCES).
    say("  the test PostgreSQL from a checkout in a private folder (the store's contract tests)");
    await run("npx", ["vitest", "run", "test/proxy/store-contract.test.ts"], app, {
      ...npmEnv,
      GIVEKIT_TEST_DATABASE_URL: "",
    });
    await run("npm", ["prune", "--omit=dev", "--no-audit", "--no-fund"], app, npmEnv);
  }
  check(!existsSync(join(app, "node_modules/tsx")), "no tsx after the prune");
  check(!existsSync(join(app, "node_modules/vite")), "no vite after the prune");
  check(existsSync(join(app, "dist/server/givekit.js")), "dist/server/givekit.js built");
  check(existsSync(join(app, "dist/widget/widget.js")), "dist/widget/widget.js built");
  const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const imported = [...importedPackages(join(app, "dist/server"))].toSorted();
  const notDependencies = imported.filter((name) => !(name in pkg.dependencies));
  check(
    notDependencies.length === 0,
    `every package the server imports is a dependency (${imported.join(", ")})`,
  );
  const missing = imported.filter((name) => !existsSync(join(app, "node_modules", name, "package.json")));
  check(missing.length === 0, "and is installed after the prune");

  say("2. the givekit command, with plain node");
  sandbox = await startSandbox();
  const campaigns = join(work, "campaigns.json");
  copyFileSync(join(app, "proxy/campaigns.demo.json"), campaigns);
  const dataDir = join(work, "data");
  mkdirSync(dataDir);
  const env: NodeJS.ProcessEnv = {
    PATH: APP_PATH,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: "0",
    UPSTREAM_BASE_URL: sandbox.url,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    ALLOWED_ORIGINS: "https://shelter.example",
    GIVEKIT_CAMPAIGNS: campaigns,
    GIVEKIT_DATA_DIR: dataDir,
    GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
    // Requests come from this script at machine speed, not from a person's form.
    GIVEKIT_MIN_FORM_MS: "0",
  };
  const givekit = (args: string[]) => run(APP_NODE, ["bin/givekit.js", ...args], app, env);
  const migrated = await givekit(["migrate"]);
  check(/schema migrated from version 0 to \d+/.test(migrated.stdout), `migrate: ${migrated.stdout.trim()}`);
  const doctor = await givekit(["doctor"]);
  check(doctor.stdout.includes("All checks passed."), "doctor: all checks passed");
  say(doctor.stdout.replace(/^/gm, "      ").trimEnd());
  // npx links the project into its cache: a cache of this check's own, left nowhere else.
  const npxEnv = { ...env, npm_config_cache: join(work, "npm-cache") };
  const npx = await run("npx", ["--no-install", "givekit", "--help"], app, npxEnv);
  check(npx.stdout.startsWith("Usage: givekit"), "npx givekit runs the package's bin");

  say("3. givekit serve, in front of the sandbox");
  const proxy = spawn(APP_NODE, ["bin/givekit.js", "serve"], { cwd: app, env, stdio: "pipe" });
  children.push(proxy);
  let stdout = "";
  let stderr = "";
  proxy.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  proxy.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proxy.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CheckFailed(`serve did not listen: ${stderr}`)), 20_000);
    proxy.stderr.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => reject(new CheckFailed(`serve exited ${code}: ${stderr}`)));
  });
  check(url, `listening on ${url}`);
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Answer };
  };
  const tokenize = async () => {
    const session = await post("/v1/form-sessions", {});
    const card = await post("/v1/payment-tokens", {
      card_number: "4242424242424242",
      cvv: "317",
      expiration_date: FUTURE_EXPIRY,
      website: "",
      form_session: session.json.form_session,
    });
    if (card.status !== 201) throw new CheckFailed(`tokenizing: ${card.status} ${JSON.stringify(card.json)}`);
    return card.json.token!;
  };
  const ready = await fetch(`${url}/v1/ready`);
  check(ready.status === 200, "GET /v1/ready: 200");
  const paid = await post("/v1/donations", donation(await tokenize(), "25.00"), {
    "Idempotency-Key": randomUUID(),
  });
  check(
    paid.status === 200 && paid.json.donation?.status === "Success",
    `a donation of 25.00: ${paid.status} ${paid.json.donation?.status}`,
  );
  const charged = await sandbox.transactions({ status: "collected", keyword: "HOPE" });
  check(charged.length === 1, "the sandbox's report shows the one charge");
  // Read on the progress reading thread: the build's own entry (dist/server/progress-worker.js).
  const progress = await fetch(`${url}/v1/campaigns/71777/HOPE/progress`);
  const figures = (await progress.json()) as { raised?: string };
  check(
    progress.status === 200 && figures.raised === "25.00",
    `the campaign's progress: ${progress.status} raised ${figures.raised}`,
  );
  const optin = await post("/v1/subscriptions", {
    mobilenumber: "5550101234",
    list: "Hope Alerts",
    consent: true,
    consent_text: CONSENT_TEXT,
  });
  check(optin.status === 200 || optin.status === 201, `an SMS opt-in: ${optin.status}`);
  check((await sandbox.subscriptions()).length === 1, "the sandbox holds the subscription");

  const refused = await fetch(`${url}/metrics`);
  const refusedText = await refused.text();
  check(
    refused.status === 401 && !refusedText.includes("givekit_"),
    "GET /metrics without the token: 401, no figures",
  );
  const metrics = await (
    await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const figure = (series: string) =>
    Number(
      metrics
        .split("\n")
        .find((line) => line.startsWith(`${series} `))
        ?.slice(series.length + 1),
    );
  check(figure('givekit_donations_total{outcome="succeeded"}') === 1, "metrics: 1 donation succeeded");
  check(figure('givekit_tokenizations_total{outcome="created"}') === 1, "metrics: 1 card tokenized");
  check(
    figure('givekit_upstream_request_duration_seconds_count{operation="donate"}') === 1,
    "metrics: 1 donate timed",
  );
  check(
    figure('givekit_upstream_request_duration_seconds_count{operation="subscribe"}') === 1,
    "metrics: 1 subscribe timed",
  );
  check(figure("givekit_unknown_attempts") === 0, "metrics: no attempt unknown");

  const attempts = await givekit(["attempts", "--json"]);
  // JSON lines: one attempt a line.
  check(
    attempts.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown).length === 1,
    "attempts: the one donation",
  );
  const consents = await givekit(["consents", "export"]);
  check(
    consents.stdout.split("\r\n").filter(Boolean).length === 2,
    "consents export: a header and the one opt-in",
  );
  const reconcile = await givekit(["reconcile"]);
  check(reconcile.stdout.includes("0 unknown attempt(s) looked up."), "reconcile: nothing unknown");

  say("4. SIGTERM while a donation waits on the upstream");
  const slowToken = await tokenize();
  const slow = post("/v1/donations", donation(slowToken, "999.99"), { "Idempotency-Key": randomUUID() });
  // Until the sandbox has the donate: then the proxy is waiting on it.
  for (let i = 0; ; i++) {
    const requests = await sandbox.requests();
    if (requests.filter((request) => request.path === "/api/v2/donations/donate").length === 2) break;
    if (i > 200) throw new CheckFailed("the slow donate never reached the sandbox");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const stopAt = performance.now();
  proxy.kill("SIGTERM");
  const answer = await slow;
  check(
    answer.status === 202 && answer.json.donation?.status === "Pending",
    `the donation in flight got its answer: ${answer.status} ${answer.json.donation?.status} (${seconds(stopAt)} after SIGTERM)`,
  );
  const code = await exited;
  check(code === 0, `the proxy exited ${code} (${seconds(stopAt)} after SIGTERM)`);
  const lines = stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { msg: string; level: number });
  check(lines.at(-1)?.msg === "proxy stopped", "its last log line: proxy stopped");
  check(!stdout.includes(DEMO.hope.privateToken) && !stdout.includes(METRICS_TOKEN), "no token in its log");
  // JSON lines: one attempt a line.
  const unknown = await givekit(["attempts", "--state", "unknown", "--json"]);
  check(
    unknown.stdout
      .trim()
      .split("\n")
      .filter((line) => line !== "").length === 1,
    "attempts: the stopped-on donation is recorded unknown, to reconcile",
  );
}

let failed = false;
try {
  await main();
  say(`production check passed in ${seconds(started)}`);
} catch (error) {
  failed = true;
  process.stderr.write(
    `production check FAILED: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (!(error instanceof CheckFailed) && error instanceof Error) process.stderr.write(`${error.stack}\n`);
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await sandbox?.close();
  if (process.env.GIVEKIT_KEEP_CLONE) say(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
