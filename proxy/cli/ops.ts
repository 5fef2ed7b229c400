/**
 * `givekit attempts`, `givekit reconcile` and `givekit consents export`: the proxy's records,
 * read from the same store as the proxy (beside it on SQLite, without its lock). Nothing a store
 * keeps is a card number, a CVV or a token, and these commands print only named columns.
 */
import { ConfigError, loadConfig, type ProxyConfig } from "../config";
import { createReconciler } from "../reconcile/reconciler";
import { openStore, StoreOpenError, type AttemptRecord, type AttemptState, type CliStore } from "../store";
import { createUpstreamClient } from "../upstream/client";
import type { Output } from "./main";

export const ATTEMPT_STATES: readonly AttemptState[] = [
  "sending",
  "unknown",
  "succeeded",
  "declined",
  "failed",
  "rejected",
  "not_sent",
  "not_charged",
];

/** A bad flag value: exit 2 with the command's usage. */
export class UsageError extends Error {}

function since(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(String(value));
  if (!/^\d{4}-\d{2}-\d{2}/.test(String(value)) || !Number.isFinite(at)) {
    throw new UsageError(
      `--since must be an ISO 8601 date or time, like 2026-11-23T10:00:00Z (got "${String(value)}")`,
    );
  }
  return new Date(at).toISOString();
}

/** Loads the configuration and the store, runs `work`, closes; config and store errors exit 1. */
async function withStore(
  env: NodeJS.ProcessEnv,
  out: Output,
  write: boolean,
  work: (store: CliStore, config: ProxyConfig) => Promise<number>,
): Promise<number> {
  let config: ProxyConfig;
  let store: CliStore;
  try {
    config = loadConfig(env);
    store = await openStore(config, { beside: { write } });
  } catch (error) {
    if (error instanceof ConfigError) out.write(`givekit: bad configuration: ${error.message}\n`);
    else if (error instanceof StoreOpenError) out.write(`givekit: cannot open the store: ${error.message}\n`);
    else throw error;
    return 1;
  }
  try {
    return await work(store, config);
  } finally {
    await store.close();
  }
}

/** The columns `givekit attempts` shows: never a fingerprint, key, or anything of a card. */
const COLUMNS = [
  "reference",
  "state",
  "amount",
  "shortcode",
  "keyword",
  "transaction_id",
  "created_at",
  "note",
  "utm",
] as const;

function publicAttempt(attempt: AttemptRecord) {
  return Object.fromEntries(COLUMNS.map((column) => [column, attempt[column]]));
}

function table(rows: Record<string, unknown>[]): string {
  const cells = rows.map((row) => COLUMNS.map((column) => String(row[column] ?? "")));
  const widths = COLUMNS.map((column, i) => Math.max(column.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(COLUMNS), ...cells.map(line)].join("\n") + "\n";
}

export async function runAttempts(values: Record<string, unknown>, env: NodeJS.ProcessEnv, out: Output) {
  const state = values.state as string | undefined;
  if (state !== undefined && !ATTEMPT_STATES.includes(state as AttemptState)) {
    throw new UsageError(`--state must be one of ${ATTEMPT_STATES.join(", ")} (got "${state}")`);
  }
  const from = since(values.since);
  return withStore(env, out, false, async (store) => {
    const rows = (await store.listAttempts({ state: state as AttemptState | undefined, since: from })).map(
      publicAttempt,
    );
    if (values.json) out.write(JSON.stringify({ attempts: rows }, null, 2) + "\n");
    else out.write(rows.length === 0 ? "No attempts.\n" : table(rows));
    return 0;
  });
}

export async function runReconcile(values: Record<string, unknown>, env: NodeJS.ProcessEnv, out: Output) {
  const reference = values.reference as string | undefined;
  return withStore(env, out, true, async (store, config) => {
    const upstream = createUpstreamClient(config.upstream);
    try {
      const reconciler = createReconciler({
        store,
        upstream,
        settleS: config.reconcileSettleS,
        owner: `cli-${process.pid}`,
      });
      const steps = await reconciler.pass({ reference });
      for (const step of steps) {
        const detail = step.transaction_id
          ? ` (transaction ${step.transaction_id})`
          : step.note
            ? `: ${step.note}`
            : "";
        out.write(`${step.reference}: ${step.result}${detail}\n`);
      }
      out.write(`${steps.length} unknown attempt(s) looked up.\n`);
      return steps.some((step) => step.result === "report_failed") ? 1 : 0;
    } finally {
      upstream.close();
    }
  });
}

const CONSENT_COLUMNS = [
  "id",
  "mobilenumber",
  "list",
  "keyword",
  "shortcode",
  "consent_text",
  "consent_text_sha256",
  "consented_at",
  "ip",
  "user_agent",
  "page_url",
  "outcome",
] as const;

/**
 * A cell a spreadsheet would run as a formula (a page URL or user agent is the visitor's to
 * choose) gets a leading apostrophe; an E.164 number ("+15550101234") is left as it is.
 */
function csvCell(value: unknown): string {
  const raw = value === null || value === undefined ? "" : String(value);
  const text = /^[=+\-@\t\r]/.test(raw) && !/^\+\d+$/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function runConsentsExport(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  out: Output,
) {
  const format = (values.format as string | undefined) ?? "csv";
  if (format !== "csv" && format !== "json")
    throw new UsageError(`--format must be csv or json (got "${format}")`);
  const from = since(values.since);
  return withStore(env, out, false, async (store) => {
    const records = (await store.consents()).filter((record) => !from || record.consented_at >= from);
    if (format === "json") {
      out.write(JSON.stringify({ consents: records }, null, 2) + "\n");
    } else {
      out.write(CONSENT_COLUMNS.join(",") + "\r\n");
      for (const record of records)
        out.write(CONSENT_COLUMNS.map((c) => csvCell(record[c])).join(",") + "\r\n");
    }
    return 0;
  });
}
