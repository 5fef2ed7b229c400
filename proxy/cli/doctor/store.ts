/** doctor's store lines: the store answers, defence mode, the webhook outbox. */
import { existsSync } from "node:fs";
import type { ProxyConfig } from "../../config";
import { activeDefences, ALL_SCOPE } from "../../defence/defence-mode";
import { openStore, type DefenceState, type OutboxStats, type CliStore } from "../../store";
import { dbFileIn } from "../../store/sqlite/data-dir";
import { shownEndpoint, type WebhookEndpoint } from "../../webhooks/endpoints";
import { assertDataDirEnterable } from "./data-dir";
import { at, Finding, type Check } from "./finding";

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

/** What a check reads from the store, or its line when SQLite has no database yet. */
async function withStore<T>(
  config: ProxyConfig,
  noDatabaseYet: string,
  read: (store: CliStore) => Promise<T>,
): Promise<T | string> {
  if (!config.databaseUrl) {
    // "No database yet" only when this user could have seen one.
    assertDataDirEnterable(config.dataDir);
    if (!existsSync(dbFileIn(config.dataDir))) return noDatabaseYet;
  }
  const store = await openStore(config, { beside: { write: false } });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

export function storeCheck(config: ProxyConfig): Check {
  return {
    name: "store",
    run: () =>
      withStore(
        config,
        `SQLite: no database yet in ${config.dataDir} (the proxy creates it when it starts)`,
        async (store) => {
          if (!(await store.healthy()))
            throw new Finding(
              config.databaseUrl ? "DATABASE_URL" : "GIVEKIT_DATA_DIR",
              "the store does not answer",
              "check that the database is up and reachable from this host",
            );
          const unknown = await store.listAttempts({ state: "unknown" });
          return `${config.databaseUrl ? "PostgreSQL" : "SQLite"} answers; ${unknown.length} attempt(s) unknown`;
        },
      ),
  };
}

export function defenceCheck(config: ProxyConfig): Check {
  return {
    name: "defence mode",
    run: () =>
      withStore(config, "off (no database yet)", async (store) =>
        describeDefence(await store.defenceStates()),
      ),
  };
}

/** Only with endpoints configured: without, there is nothing to say. */
export function webhooksCheck(config: ProxyConfig): Check {
  return {
    name: "webhooks",
    run: () =>
      withStore(config, `${config.webhooks.length} endpoint(s); no database yet`, async (store) =>
        describeWebhooks(config.webhooks, await store.webhookStats()),
      ),
  };
}
