/**
 * `givekit doctor`: one line per check, and a non-zero exit when one fails. It names what is
 * wrong (a variable, a campaign, an HTTP status) and never prints a token.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Campaign } from "../../contract/api";
import { ConfigError, loadConfig, type ProxyConfig } from "../config";
import { ProblemError } from "../problem";
import { activeDefences, ALL_SCOPE } from "../defence/defence-mode";
import { openStore, StoreOpenError, type DefenceState } from "../store";
import { openSqliteBeside } from "../store/sqlite/beside";
import { JOURNAL_FILE } from "../store/sqlite/data-dir";
import { createUpstreamClient, type UpstreamClient } from "../upstream/client";
import type { Output } from "./main";

interface Check {
  name: string;
  run(): Promise<string>;
}

function why(error: unknown): string {
  if (error instanceof ProblemError || error instanceof ConfigError || error instanceof StoreOpenError)
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
    {
      name: "store",
      run: async () => {
        if (!config.databaseUrl && !existsSync(join(config.dataDir, JOURNAL_FILE))) {
          return `SQLite: no journal yet in ${config.dataDir} (the proxy creates it when it starts)`;
        }
        const store = config.databaseUrl
          ? await openStore(config)
          : openSqliteBeside(config.dataDir, { readonly: true });
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
        if (!config.databaseUrl && !existsSync(join(config.dataDir, JOURNAL_FILE)))
          return "off (no journal yet)";
        const store = config.databaseUrl
          ? await openStore(config)
          : openSqliteBeside(config.dataDir, { readonly: true });
        try {
          return describeDefence(await store.defenceStates());
        } finally {
          await store.close();
        }
      },
    },
    { name: "upstream login", run: async () => (await upstream.login(), "the private token is accepted") },
    ...config.campaigns.map((campaign) => campaignCheck(upstream, campaign)),
  ];
  let failed = 0;
  try {
    for (const check of checks) {
      try {
        out.write(`✓ ${check.name}: ${await check.run()}\n`);
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
