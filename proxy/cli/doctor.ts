/**
 * `givekit doctor`: one line per check, and a non-zero exit when one fails. It names what is
 * wrong (a variable, a campaign, an HTTP status) and never prints a token.
 */
import { escapeControls, jsonLine } from "./escape";
import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { compileTrust } from "../client-ip";
import type { Campaign } from "../../contract/api";
import { ConfigError, DEFAULT_CAMPAIGNS_PATH, loadConfig, packageRoot, type ProxyConfig } from "../config";
import { activeDefences, ALL_SCOPE } from "../defence/defence-mode";
import { describeHumanCheck } from "./doctor-human-check";
import { openStore, StoreOpenError, type DefenceState, type OutboxStats } from "../store";
import { shownEndpoint, type WebhookEndpoint } from "../webhooks/endpoints";
import { dbFileIn } from "../store/sqlite/data-dir";
import { createUpstreamClient, type UpstreamClient } from "../upstream/client";
import {
  UpstreamAnswerError,
  UpstreamAuthError,
  UpstreamError,
  UpstreamUnreachableError,
} from "../upstream/errors";
import type { Output } from "./output";

interface Check {
  name: string;
  /** What it found; a DoctorNote is a line that fails nothing. */
  run(): Promise<string | DoctorNote>;
}

/** A line worth reading that is not a failure (such as "no challenge configured"). */
class DoctorNote {
  constructor(readonly text: string) {}
}

/** The file the script tag loads: the widget build is there or it is not. */
const WIDGET_ENTRY = "widget.js";
/** What the widget build is made from (vite.config.ts): its sources, and the contract it imports. */
const WIDGET_SOURCE_DIRS = ["widget", "contract"];

/** The newest source file under the package's widget sources (ms), or null without sources. */
function newestWidgetSource(root: string): { path: string; at: number } | null {
  let newest: { path: string; at: number } | null = null;
  for (const dir of WIDGET_SOURCE_DIRS) {
    const full = join(root, dir);
    if (!existsSync(full)) continue;
    for (const name of readdirSync(full, { recursive: true })) {
      const file = String(name);
      if (!/\.(ts|tsx|css|html|json)$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
      const at = statSync(join(full, file)).mtimeMs;
      if (!newest || at > newest.at) newest = { path: join(dir, file), at };
    }
  }
  return newest;
}

/** Whether the built widget is there, and not older than the sources beside the package. */
export function checkWidgetBuild(widgetDir: string, root = packageRoot()): string {
  const entry = join(widgetDir, WIDGET_ENTRY);
  if (!existsSync(entry)) {
    throw new Finding(
      "GIVEKIT_WIDGET_DIR",
      `${entry} is missing`,
      "run `npm run build`, or set GIVEKIT_WIDGET_DIR to the built widget",
    );
  }
  const builtAt = statSync(entry).mtimeMs;
  const newest = newestWidgetSource(root);
  if (newest && newest.at > builtAt) {
    throw new Finding(
      "GIVEKIT_WIDGET_DIR",
      `${entry} is older than ${newest.path} (built ${at(builtAt)}, source changed ${at(newest.at)})`,
      "run `npm run build`",
    );
  }
  return `built ${at(builtAt)} in ${widgetDir}`;
}

/** ALLOWED_ORIGINS: none is a widget nobody can use; http: origins in production send card pages in clear. */
export function checkOrigins(origins: string[], nodeEnv: string | undefined): string {
  if (origins.length === 0) {
    throw new Finding(
      "ALLOWED_ORIGINS",
      "is empty: no page may use the widgets or frame the card form",
      "set ALLOWED_ORIGINS to the origins of the pages that show the widgets, e.g. https://www.example.org",
    );
  }
  const plain = origins.filter((origin) => origin.startsWith("http:"));
  if (nodeEnv === "production" && plain.length > 0) {
    throw new Finding(
      "ALLOWED_ORIGINS",
      `holds http: origins with NODE_ENV=production (${plain.join(", ")}): donors' pages must be served over https`,
      "list the https:// origins of those pages instead",
    );
  }
  return origins.join(", ");
}

/**
 * A failed check: the variable that fixes it, what is wrong, and the fix, so the line can be
 * acted on without the GUIDE open.
 */
export class Finding extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${variable}: ${problem}. Fix: ${fix}`);
    this.name = "Finding";
  }
}

function why(error: unknown): string {
  if (
    error instanceof Finding ||
    error instanceof UpstreamError ||
    error instanceof ConfigError ||
    error instanceof StoreOpenError ||
    error?.constructor === Error
  )
    return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : "failed";
}

/** The HTTP status the upstream answered a failed call with, if it answered. */
const httpStatusOf = (error: UpstreamError) =>
  error instanceof UpstreamAuthError || error instanceof UpstreamAnswerError ? error.httpStatus : null;

const BASE_URL_FIX =
  "set UPSTREAM_BASE_URL to the service's root (scheme://host[:port], without /api/v2: the proxy adds the paths)";

/**
 * An upstream call's failure as the variable that fixes it: no answer or a path the service
 * does not have is UPSTREAM_BASE_URL; a refused login its token.
 */
function upstreamFinding(error: unknown, token: "UPSTREAM_PRIVATE_TOKEN" | "UPSTREAM_PUBLIC_TOKEN"): unknown {
  if (!(error instanceof UpstreamError)) return error;
  if (error instanceof UpstreamUnreachableError)
    return new Finding(
      "UPSTREAM_BASE_URL",
      `the upstream cannot be reached (${error.message.replace(/\.$/, "")})`,
      "check the URL, and that this host can reach it (DNS, firewall, proxy)",
    );
  const status = httpStatusOf(error);
  if (status === 404 || status === 405)
    return new Finding(
      "UPSTREAM_BASE_URL",
      `the upstream answered HTTP ${status} at the API's path: no such API under this URL`,
      BASE_URL_FIX,
    );
  if (error instanceof UpstreamAuthError)
    return new Finding(
      token,
      error.message.replace(/\.$/, ""),
      `set ${token} to the account's ${token === "UPSTREAM_PRIVATE_TOKEN" ? "private" : "public"} API token`,
    );
  return new Finding(
    "UPSTREAM_BASE_URL",
    error.message.replace(/\.$/, ""),
    "check the service's status and that UPSTREAM_BASE_URL is its root, then run givekit doctor again",
  );
}

function campaignCheck(upstream: UpstreamClient, campaign: Campaign): Check {
  return {
    name: `campaign ${campaign.shortcode}/${campaign.keyword}`,
    run: async () => {
      let fundraisers;
      try {
        fundraisers = await upstream.fundraisers(campaign.shortcode, campaign.keyword);
      } catch (error) {
        if (
          error instanceof UpstreamError &&
          !(error instanceof UpstreamAuthError) &&
          httpStatusOf(error) === 404
        )
          throw new Finding(
            "GIVEKIT_CAMPAIGNS",
            `${campaign.shortcode}/${campaign.keyword} is not a campaign of this account upstream (${error.message.replace(/\.$/, "")})`,
            "correct its shortcode and keyword in the campaigns file, or create the keyword upstream",
          );
        throw upstreamFinding(error, "UPSTREAM_PRIVATE_TOKEN");
      }
      return `exists upstream (${fundraisers.length} fundraiser${fundraisers.length === 1 ? "" : "s"})`;
    },
  };
}

/** "2026-11-23T23:10:04Z": when, to the second, in UTC. */
const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

const scopeName = (scope: string) => (scope === ALL_SCOPE ? "all campaigns" : `campaign ${scope}`);

/**
 * Defence mode as every proxy on this store sees it now: on or off, since when, which signal
 * started it, in which scope (all campaigns, or one). Never a card: the table holds none.
 */
export function describeDefence(states: DefenceState[], now = Date.now()): string {
  const on = activeDefences(states, now);
  if (on.length === 0) {
    const last = states.toSorted((a, b) => b.until - a.until)[0];
    return last
      ? `off (last: ${scopeName(last.scope)}, ${last.signal}, ${at(last.since)} to ${at(last.until)})`
      : "off (never entered)";
  }
  return on
    .map(
      (state) =>
        `ON for ${scopeName(state.scope)} since ${at(state.since)} (signal ${state.signal}: ${+state.value.toFixed(2)}), ` +
        `ends ${at(state.until)} unless a signal crosses again`,
    )
    .join("; ");
}

/** How long an endpoint fails before doctor says so. */
export const WEBHOOK_FAILING_MS = 3600 * 1000;

/**
 * The webhook outbox as doctor reports it: a configured endpoint with an event that has failed
 * for an hour or more (or was given up in the last day) fails the check, naming the endpoint.
 */
export function describeWebhooks(
  endpoints: readonly WebhookEndpoint[],
  stats: OutboxStats,
  now = Date.now(),
): string {
  const configured = new Set(endpoints.map((endpoint) => endpoint.url));
  const failing = stats.failing.filter(
    (entry) => configured.has(entry.endpoint) && (now - entry.since >= WEBHOOK_FAILING_MS || entry.dead > 0),
  );
  if (failing.length > 0) {
    throw new Finding(
      "GIVEKIT_WEBHOOKS",
      failing
        .map(
          (entry) =>
            `${shownEndpoint(entry.endpoint)} has failed since ${at(entry.since)}` +
            (entry.dead > 0 ? ` (${entry.dead} event(s) given up)` : ""),
        )
        .join("; "),
      "make the endpoint answer 2xx (`givekit webhooks list --state pending` shows its last error), then `givekit webhooks retry`",
    );
  }
  const waiting =
    stats.oldestPendingAt === null
      ? "none waiting"
      : `${stats.pending} waiting, the oldest since ${at(stats.oldestPendingAt)}`;
  return `${endpoints.length} endpoint(s); ${stats.delivered} delivered, ${waiting}`;
}

/** One check's result, as printed (and as `--json` gives it). */
export interface DoctorResult {
  check: string;
  status: "pass" | "fail" | "note";
  text: string;
  /** For a failure: the variable that fixes it, and how. */
  variable?: string;
  fix?: string;
}

/** Where doctor can find a proxy running with this configuration (0.0.0.0 is reached on loopback). */
function runningProxyUrl(config: ProxyConfig): string | null {
  if (config.port === 0) return null;
  const host = config.host === "0.0.0.0" ? "127.0.0.1" : config.host === "::" ? "::1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/** The running proxy's count of requests it could not place (client-ip.ts), by problem; null when it cannot be read. */
async function addressProblems(base: string, token: string): Promise<Record<string, number> | null> {
  try {
    const res = await fetch(`${base}/metrics`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(2000),
    });
    if (!res.ok) return null;
    const counts: Record<string, number> = { untrusted_forwarder: 0, missing_forwarded_for: 0 };
    for (const [, problem, value] of (await res.text()).matchAll(
      /^givekit_client_address_problems_total\{problem="(\w+)"\} (\d+)/gm,
    ))
      counts[problem!] = Number(value);
    return counts;
  } catch {
    return null;
  }
}

/** Addresses nobody's reverse proxy has: a trust list holding one believes anybody's header. */
const PUBLIC_PROBES = ["8.8.8.8", "203.0.113.9", "2001:4860:4860::8888"];

/**
 * GIVEKIT_TRUST_PROXY, checked three ways: what it trusts (never a public address), what the
 * running proxy counted (a header from a peer it does not trust, or none from one it does), and,
 * with a front URL (GIVEKIT_PUBLIC_URL or --front), a request sent through the front and seen
 * arriving.
 */
async function checkTrust(config: ProxyConfig, front: string | undefined): Promise<string | DoctorNote> {
  const { addresses, explicit } = config.trustProxy;
  const shown = addresses.length > 0 ? addresses.join(",") : "none";
  const trust = compileTrust(addresses);
  const open = PUBLIC_PROBES.find((address) => trust(address, 0));
  if (open)
    throw new Finding(
      "GIVEKIT_TRUST_PROXY",
      `${shown} trusts public addresses (${open}): anyone can write X-Forwarded-For and be believed, dodging every per-client limit`,
      "name only your reverse proxies (loopback for nginx or Caddy on this host, or their addresses or ranges)",
    );
  const base = runningProxyUrl(config);
  const token = config.metricsToken;
  const said = `GIVEKIT_TRUST_PROXY=${shown}${explicit ? "" : " (the default: HOST is loopback)"}`;
  if (!base)
    return new DoctorNote(
      `${said}; with PORT=0 there is no running proxy doctor can find to ask how it reads addresses`,
    );
  if (!token)
    return new DoctorNote(
      `${said}; set GIVEKIT_METRICS_TOKEN so doctor can see how a running proxy reads addresses`,
    );
  const before = await addressProblems(base, token);
  if (!before) return new DoctorNote(`${said}; no proxy answers at ${base} to say how it reads addresses`);
  let after = before;
  let through = "";
  const url = front ?? undefined;
  if (url) {
    const campaign = config.campaigns[0];
    const path = campaign ? `/v1/campaigns/${campaign.shortcode}/${campaign.keyword}` : "/v1/nothing-here";
    try {
      await fetch(new URL(path, url), { signal: AbortSignal.timeout(5000) });
    } catch (error) {
      throw new Finding(
        "GIVEKIT_PUBLIC_URL",
        `${url} does not answer (${error instanceof Error ? error.message : "no answer"})`,
        "set GIVEKIT_PUBLIC_URL (or --front) to the address donors' browsers use, or leave it unset",
      );
    }
    after = (await addressProblems(base, token)) ?? before;
    through = `; a request through ${url} arrived as its client's`;
  }
  const grew = (problem: string) => (after[problem] ?? 0) > (url ? (before[problem] ?? 0) : 0);
  if (grew("untrusted_forwarder"))
    throw new Finding(
      "GIVEKIT_TRUST_PROXY",
      `${url ? `a request through ${url}` : `the proxy at ${base} has had requests`} with X-Forwarded-For from a peer ${shown} does not trust${url ? "" : " (a reverse proxy in front, or clients forging the header: its log names the peer)"}: every donor behind a reverse proxy it does not trust counts as one client, and five declines block them all`,
      "add the reverse proxy's address (the proxy's log names it: \"X-Forwarded-For came from …\"), e.g. GIVEKIT_TRUST_PROXY=loopback",
    );
  if (grew("missing_forwarded_for")) {
    const fix =
      "make the reverse proxy set X-Forwarded-For (nginx: proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for), or set GIVEKIT_TRUST_PROXY=none if nothing is in front";
    // Without a front to send through, a request made on this host (a curl) counts as well.
    if (!url)
      return new DoctorNote(
        `${said}; the proxy at ${base} has had ${after.missing_forwarded_for} request(s) from a trusted address without X-Forwarded-For (a reverse proxy that does not set it, or requests made directly on this host): run givekit doctor --front https://… to tell. If it is the reverse proxy: ${fix}`,
      );
    throw new Finding(
      "GIVEKIT_TRUST_PROXY",
      `a request through ${url} came from a trusted reverse proxy without X-Forwarded-For: every donor counts as that proxy`,
      fix,
    );
  }
  return `${said}; the proxy at ${base} has placed every client${through}`;
}

/** Whether this user can keep the store in the data directory (SQLite), and keeps it to itself. */
export function checkDataDir(dataDir: string): string {
  let existing = dataDir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    if (!statSync(existing).isDirectory()) throw Object.assign(new Error(), { code: "ENOTDIR" });
    accessSync(existing, constants.W_OK | constants.X_OK);
    const db = join(dataDir, "givekit.db");
    if (existsSync(db)) accessSync(db, constants.R_OK | constants.W_OK);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "EACCES";
    throw new Finding(
      "GIVEKIT_DATA_DIR",
      `${existing === dataDir ? dataDir : `${existing} (where ${dataDir} would be made)`} cannot be used by this user (${code})`,
      "give the proxy's user a directory of its own (chown it, mode 0700), or set GIVEKIT_DATA_DIR to one",
    );
  }
  const open = ["givekit.db", "givekit.db-wal", "givekit.db-shm", "signing-secret"].filter((name) => {
    const path = join(dataDir, name);
    return existsSync(path) && (statSync(path).mode & 0o077) !== 0;
  });
  if (open.length > 0)
    throw new Finding(
      "GIVEKIT_DATA_DIR",
      `${open.join(", ")} in ${dataDir} can be read by other users (donors' phone numbers and addresses)`,
      `chmod 600 them (the proxy does when it next starts), and run it with UMask=0077`,
    );
  return existsSync(dataDir) ? `${dataDir} is this user's to write` : `${dataDir} can be made by this user`;
}

/** A failed check's result, naming its variable (and fix) when the error knows them. */
const failure = (check: string, error: unknown): DoctorResult => ({
  check,
  status: "fail",
  text: why(error),
  ...(error instanceof Finding
    ? { variable: error.variable, fix: error.fix }
    : error instanceof ConfigError || error instanceof StoreOpenError
      ? { variable: error.variable }
      : {}),
});

/**
 * Runs every check; resolves with the exit code (1 when any failed). `--json` prints the results
 * as one JSON document instead of lines.
 */
export async function runDoctor(
  env: NodeJS.ProcessEnv,
  out: Output,
  options: { json?: boolean; front?: string } = {},
): Promise<number> {
  const results: DoctorResult[] = [];
  const say = (result: DoctorResult) => {
    results.push(result);
    if (options.json) return;
    const mark = result.status === "pass" ? "✓" : result.status === "fail" ? "✗" : "·";
    // Values doctor reads (a campaign's name, an upstream's answer) reach an operator's terminal.
    out.write(`${mark} ${escapeControls(result.check)}: ${escapeControls(result.text)}\n`);
  };
  const finish = (code: number) => {
    const failed = results.filter((result) => result.status === "fail").length;
    if (options.json) out.write(jsonLine({ ok: failed === 0, failed, checks: results }));
    else out.write(failed === 0 ? "All checks passed.\n" : `${failed} check(s) failed.\n`);
    return code;
  };

  const nodeEnv = env.NODE_ENV;
  let config: ProxyConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    say(failure("configuration", error));
    return finish(1);
  }
  say({
    check: "configuration",
    status: "pass",
    text:
      `${config.campaigns.length} campaign(s), upstream ${config.upstream.baseUrl}, ` +
      `data directory ${config.dataDir}`,
  });
  for (const line of config.deprecations) say({ check: "deprecated", status: "note", text: line });

  const upstream = createUpstreamClient(config.upstream);
  const front = options.front ?? (env.GIVEKIT_PUBLIC_URL?.trim() || undefined);
  const checks: Check[] = [
    { name: "allowed origins", run: async () => checkOrigins(config.allowedOrigins, nodeEnv) },
    {
      name: "campaigns",
      run: async () => {
        if (config.campaignsPath === DEFAULT_CAMPAIGNS_PATH) {
          throw new Finding(
            "GIVEKIT_CAMPAIGNS",
            `the demo campaigns file is in use (${relative(packageRoot(), DEFAULT_CAMPAIGNS_PATH)})`,
            "set GIVEKIT_CAMPAIGNS to your own campaigns file",
          );
        }
        return `${config.campaigns.length} from ${config.campaignsPath}`;
      },
    },
    { name: "widget build", run: async () => checkWidgetBuild(config.widgetDir) },
    {
      name: "challenge",
      run: async () =>
        new DoctorNote(
          config.defence.turnstile
            ? `Turnstile configured (site key ${config.defence.turnstile.siteKey}): defence mode asks for it`
            : "none configured (TURNSTILE_SITE_KEY, TURNSTILE_SECRET): defence mode asks givekit's own challenge (a proof of work)",
        ),
    },
    { name: "human check", run: async () => new DoctorNote(describeHumanCheck(config.defence)) },
    ...(config.databaseUrl
      ? []
      : [{ name: "data directory", run: async () => checkDataDir(config.dataDir) }]),
    {
      name: "store",
      run: async () => {
        if (!config.databaseUrl && !existsSync(dbFileIn(config.dataDir))) {
          return `SQLite: no database yet in ${config.dataDir} (the proxy creates it when it starts)`;
        }
        const store = await openStore(config, { beside: { write: false } });
        try {
          if (!(await store.healthy()))
            throw new Finding(
              config.databaseUrl ? "DATABASE_URL" : "GIVEKIT_DATA_DIR",
              "the store does not answer",
              "check that the database is up and reachable from this host",
            );
          const unknown = await store.listAttempts({ state: "unknown" });
          return `${config.databaseUrl ? "PostgreSQL" : "SQLite"} answers; ${unknown.length} attempt(s) unknown`;
        } finally {
          await store.close();
        }
      },
    },
    {
      name: "defence mode",
      run: async () => {
        if (!config.databaseUrl && !existsSync(dbFileIn(config.dataDir))) return "off (no database yet)";
        const store = await openStore(config, { beside: { write: false } });
        try {
          return describeDefence(await store.defenceStates());
        } finally {
          await store.close();
        }
      },
    },
    // Only with endpoints configured: without, there is nothing to say.
    ...(config.webhooks.length === 0
      ? []
      : [
          {
            name: "webhooks",
            run: async () => {
              if (!config.databaseUrl && !existsSync(dbFileIn(config.dataDir)))
                return `${config.webhooks.length} endpoint(s); no database yet`;
              const store = await openStore(config, { beside: { write: false } });
              try {
                return describeWebhooks(config.webhooks, await store.webhookStats());
              } finally {
                await store.close();
              }
            },
          },
        ]),
    { name: "client address", run: () => checkTrust(config, front) },
    {
      name: "upstream login",
      run: async () => {
        try {
          await upstream.login();
        } catch (error) {
          throw upstreamFinding(error, "UPSTREAM_PRIVATE_TOKEN");
        }
        return "the private token is accepted";
      },
    },
    {
      name: "upstream public token",
      run: async () => {
        // A number no service takes: an answer about the number, not the token, proves the
        // token; nobody is subscribed.
        let outcome;
        try {
          outcome = await upstream.subscribe({ mobilenumber: "0", list: "givekit doctor" });
        } catch (error) {
          throw upstreamFinding(error, "UPSTREAM_PUBLIC_TOKEN");
        }
        if (outcome.kind !== "rejected") return "the public token is accepted";
        // A path the service does not have, or its failure, is no answer about the number.
        if (outcome.httpStatus === 404 || outcome.httpStatus === 405)
          throw new Finding(
            "UPSTREAM_BASE_URL",
            `the upstream answered HTTP ${outcome.httpStatus} at the subscribe path: no such API under this URL`,
            BASE_URL_FIX,
          );
        if (outcome.httpStatus === null || outcome.httpStatus >= 500)
          throw new Finding(
            "UPSTREAM_BASE_URL",
            `the upstream answered ${outcome.httpStatus === null ? "nothing usable" : `HTTP ${outcome.httpStatus}`} at the subscribe path, which says nothing of the public token`,
            "check the URL and the service's status, then run givekit doctor again",
          );
        return `the public token is accepted (a check that subscribes nobody: HTTP ${outcome.httpStatus})`;
      },
    },
    ...config.campaigns.map((campaign) => campaignCheck(upstream, campaign)),
  ];
  try {
    for (const check of checks) {
      try {
        const found = await check.run();
        say(
          found instanceof DoctorNote
            ? { check: check.name, status: "note", text: found.text }
            : { check: check.name, status: "pass", text: found },
        );
      } catch (error) {
        say(failure(check.name, error));
      }
    }
  } finally {
    upstream.close();
  }
  return finish(results.some((result) => result.status === "fail") ? 1 : 0);
}
