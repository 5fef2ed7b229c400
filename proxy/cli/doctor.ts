/**
 * `givekit doctor`: one line per check, and a non-zero exit when one fails. It names what is
 * wrong (a variable, a campaign, an HTTP status) and never prints a token.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Campaign } from "../../contract/api";
import { ConfigError, DEFAULT_CAMPAIGNS_PATH, loadConfig, packageRoot, type ProxyConfig } from "../config";
import { ProblemError } from "../problem";
import { activeDefences, ALL_SCOPE } from "../defence/defence-mode";
import { openStore, StoreOpenError, type DefenceState } from "../store";
import { dbFileIn } from "../store/sqlite/data-dir";
import { createUpstreamClient, type UpstreamClient } from "../upstream/client";
import type { Output } from "./main";

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
    throw new Error(`${entry} is missing: run \`npm run build\` (or set GIVEKIT_WIDGET_DIR)`);
  }
  const builtAt = statSync(entry).mtimeMs;
  const newest = newestWidgetSource(root);
  if (newest && newest.at > builtAt) {
    throw new Error(
      `${entry} is older than ${newest.path} (built ${at(builtAt)}, source changed ${at(newest.at)}): run \`npm run build\``,
    );
  }
  return `built ${at(builtAt)} in ${widgetDir}`;
}

/** ALLOWED_ORIGINS: none is a widget nobody can use; http: origins in production send card pages in clear. */
export function checkOrigins(origins: string[], nodeEnv: string | undefined): string {
  if (origins.length === 0) {
    throw new Error("ALLOWED_ORIGINS is empty: no page may use the widgets or frame the card form");
  }
  const plain = origins.filter((origin) => origin.startsWith("http:"));
  if (nodeEnv === "production" && plain.length > 0) {
    throw new Error(
      `ALLOWED_ORIGINS holds http: origins with NODE_ENV=production (${plain.join(", ")}): donors' pages must be https:`,
    );
  }
  return origins.join(", ");
}

function why(error: unknown): string {
  if (
    error instanceof ProblemError ||
    error instanceof ConfigError ||
    error instanceof StoreOpenError ||
    error?.constructor === Error
  )
    return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : "failed";
}

function campaignCheck(upstream: UpstreamClient, campaign: Campaign): Check {
  return {
    name: `campaign ${campaign.shortcode}/${campaign.keyword}`,
    run: async () => {
      const fundraisers = await upstream.fundraisers(campaign.shortcode, campaign.keyword);
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

/** Runs every check; resolves with the exit code (1 when any failed). */
export async function runDoctor(env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const nodeEnv = env.NODE_ENV;
  let config: ProxyConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    out.write(`✗ configuration: ${why(error)}\n`);
    return 1;
  }
  out.write(
    `✓ configuration: ${config.campaigns.length} campaign(s), upstream ${config.upstream.baseUrl}, ` +
      `data directory ${config.dataDir}\n`,
  );

  const upstream = createUpstreamClient(config.upstream);
  const checks: Check[] = [
    { name: "allowed origins", run: async () => checkOrigins(config.allowedOrigins, nodeEnv) },
    {
      name: "campaigns",
      run: async () => {
        if (config.campaignsPath === DEFAULT_CAMPAIGNS_PATH) {
          throw new Error(
            `the demo campaigns file is in use (${relative(packageRoot(), DEFAULT_CAMPAIGNS_PATH)}): set GIVEKIT_CAMPAIGNS to your own`,
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
            : "none configured (TURNSTILE_SITE_KEY, TURNSTILE_SECRET): defence mode throttles new cards instead",
        ),
    },
    {
      name: "store",
      run: async () => {
        if (!config.databaseUrl && !existsSync(dbFileIn(config.dataDir))) {
          return `SQLite: no database yet in ${config.dataDir} (the proxy creates it when it starts)`;
        }
        const store = await openStore(config, { beside: { write: false } });
        try {
          if (!(await store.healthy())) throw new Error("does not answer");
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
    { name: "upstream login", run: async () => (await upstream.login(), "the private token is accepted") },
    {
      name: "upstream public token",
      run: async () => {
        // A number no service takes: an answer about the number, not the token, proves the
        // token; nobody is subscribed.
        const outcome = await upstream.subscribe({ mobilenumber: "0", list: "givekit doctor" });
        return outcome.kind === "rejected"
          ? `the public token is accepted (a check that subscribes nobody: HTTP ${outcome.httpStatus})`
          : "the public token is accepted";
      },
    },
    ...config.campaigns.map((campaign) => campaignCheck(upstream, campaign)),
  ];
  let failed = 0;
  try {
    for (const check of checks) {
      try {
        const found = await check.run();
        out.write(
          found instanceof DoctorNote ? `· ${check.name}: ${found.text}\n` : `✓ ${check.name}: ${found}\n`,
        );
      } catch (error) {
        failed++;
        out.write(`✗ ${check.name}: ${why(error)}\n`);
      }
    }
  } finally {
    upstream.close();
  }
  out.write(failed === 0 ? "All checks passed.\n" : `${failed} check(s) failed.\n`);
  return failed === 0 ? 0 : 1;
}
