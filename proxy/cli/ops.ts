/**
 * `givekit attempts`, `givekit reconcile` and `givekit consents export`: the proxy's records,
 * read from the same store as the proxy (beside it on SQLite, without its lock). Nothing a store
 * keeps is a card number, a CVV or a token, and these commands print only named columns.
 */
import { randomBytes } from "node:crypto";
import { ConfigError, loadConfig, type ProxyConfig } from "../config";
import { createReconciler } from "../reconcile/reconciler";
import { campaignScope } from "../campaign/directory";
import { createFormOutcomes } from "../dashboard/form-outcomes";
import { memoryCounters, withSharedNotes } from "../store/counters";
import {
  openStore,
  StoreOpenError,
  type AttemptRecord,
  type AttemptState,
  type CliStore,
  type Store,
} from "../store";
import { createUpstreamClient } from "../upstream/client";
import { escapeControls, jsonLine } from "./escape";
import type { Output } from "./output";

/** Rows read from the store at a time: a listing's memory, whatever its length. */
const PAGE = 500;

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

export function since(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(String(value));
  if (!/^\d{4}-\d{2}-\d{2}/.test(String(value)) || !Number.isFinite(at)) {
    throw new UsageError(
      `--since must be an ISO 8601 date or time, like 2026-11-23T10:00:00Z (got "${escapeControls(String(value))}")`,
    );
  }
  return new Date(at).toISOString();
}

export function count(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[1-9]\d{0,8}$/.test(text)) {
    throw new UsageError(`${flag} must be a whole number from 1 (got "${escapeControls(text)}")`);
  }
  return Number(text);
}

/** Writes, and waits when the reader is slower than the store (a pipe to `less`). */
export async function emit(out: Output, text: string): Promise<void> {
  const stream = out as Output & Partial<Pick<NodeJS.WritableStream, "once">>;
  if (out.write(text) === false && typeof stream.once === "function") {
    await new Promise((resolve) => stream.once!("drain", resolve));
  }
}

/**
 * Reads a listing page by page (each starting after the last row of the one before) and hands
 * each page on; stops after `limit` rows. Resolves with the last row's cursor when rows were left
 * unread because of the limit (null otherwise).
 */
export async function eachPage<T, C>(
  read: (after: C | null, limit: number) => Promise<T[]>,
  cursorOf: (row: T) => C,
  start: C | null,
  limit: number | undefined,
  use: (rows: T[]) => Promise<void>,
): Promise<C | null> {
  let after = start;
  let left = limit ?? Number.POSITIVE_INFINITY;
  while (left > 0) {
    const want = Math.min(PAGE, left);
    const rows = await read(after, want);
    if (rows.length > 0) {
      await use(rows);
      after = cursorOf(rows.at(-1)!);
    }
    if (rows.length < want) return null;
    left -= rows.length;
  }
  return (await read(after, 1)).length > 0 ? after : null;
}

/** Loads the configuration and the store, runs `work`, closes; config and store errors exit 1. */
export async function withStore(
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

/**
 * A table printed as it is read: the columns as wide as the first page needs (a longer value
 * later runs past its column rather than holding every row back), every cell escaped.
 */
function tableWriter() {
  let widths: number[] | null = null;
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => value.padEnd(widths![i]!))
      .join("  ")
      .trimEnd();
  return (rows: Record<string, unknown>[]): string => {
    const cells = rows.map((row) => COLUMNS.map((column) => escapeControls(String(row[column] ?? ""))));
    let text = "";
    if (!widths) {
      widths = COLUMNS.map((column, i) => Math.max(column.length, ...cells.map((row) => row[i]!.length)));
      text = `${line(COLUMNS)}\n`;
    }
    return text + cells.map((row) => `${line(row)}\n`).join("");
  };
}

/** Says on stderr how to ask for the next page, when --limit left rows unread. */
export function nextPage(err: Output, command: string, cursor: string | number | null) {
  if (cursor !== null) err.write(`More rows: ${command} --after ${cursor} for the next page.\n`);
}

export async function runAttempts(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  out: Output,
  err: Output = out,
) {
  const state = values.state as string | undefined;
  if (state !== undefined && !ATTEMPT_STATES.includes(state as AttemptState)) {
    throw new UsageError(
      `--state must be one of ${ATTEMPT_STATES.join(", ")} (got "${escapeControls(state)}")`,
    );
  }
  const from = since(values.since);
  const limit = count(values.limit, "--limit");
  const after = values.after as string | undefined;
  return withStore(env, out, false, async (store) => {
    if (after !== undefined && !(await store.attempt(after))) {
      throw new UsageError(
        `--after must name an attempt's reference (no attempt "${escapeControls(after)}")`,
      );
    }
    const filter = { state: state as AttemptState | undefined, since: from };
    const table = tableWriter();
    let shown = 0;
    const more = await eachPage(
      (cursor, want) => store.attemptsPage(filter, cursor, want),
      (row) => row.reference,
      after ?? null,
      limit,
      async (rows) => {
        shown += rows.length;
        const shownRows = rows.map(publicAttempt);
        await emit(out, values.json ? shownRows.map(jsonLine).join("") : table(shownRows));
      },
    );
    if (shown === 0 && !values.json) out.write("No attempts.\n");
    nextPage(err, "givekit attempts", more);
    return 0;
  });
}

/**
 * The dashboard's funnel as this command counts a gift it settles: with the proxies' counters
 * (PostgreSQL), or beside a proxy on SQLite with the notes it shares (a Pending gift's channel).
 */
function commandFunnel(store: CliStore, config: ProxyConfig) {
  const shared = (store as Partial<Store>).counters;
  return createFormOutcomes({
    store,
    counters: shared ?? withSharedNotes(memoryCounters(), store.sharedNotes),
    channelsCap: config.dashboard.channels,
    // No beacon comes to a command: a session without a note counts under `direct` at once.
    segmentWaitMs: 0,
  });
}

export async function runReconcile(values: Record<string, unknown>, env: NodeJS.ProcessEnv, out: Output) {
  const reference = values.reference as string | undefined;
  return withStore(env, out, true, async (store, config) => {
    const upstream = createUpstreamClient(config.upstream);
    // A gift settled here is counted in the funnel as a proxy's own reconciler would count it.
    const funnel = commandFunnel(store, config);
    const counting: Promise<void>[] = [];
    const reconciler = createReconciler({
      store,
      upstream,
      settleS: config.reconcileSettleS,
      // Each run its own owner (a pid alone recurs, in containers and across restarts).
      owner: `cli-${process.pid}-${randomBytes(4).toString("hex")}`,
      webhooks: config.webhooks,
      onSettled: (attempt, outcome) => {
        if (attempt.form_session)
          counting.push(
            funnel
              .settled({ id: attempt.form_session, campaign: campaignScope(attempt) }, outcome.state)
              .catch((error: unknown) => {
                out.write(
                  `${escapeControls(`${attempt.reference}: not counted in the dashboard's funnel (${String(error)})`)}\n`,
                );
              }),
          );
      },
    });
    try {
      const steps = await reconciler.pass({ reference });
      for (const step of steps) {
        const detail = step.transaction_id
          ? ` (transaction ${step.transaction_id})`
          : step.note
            ? `: ${step.note}`
            : "";
        out.write(`${escapeControls(`${step.reference}: ${step.result}${detail}`)}\n`);
      }
      out.write(`${steps.length} unknown attempt(s) looked up.\n`);
      await Promise.all(counting);
      return steps.some((step) => step.result === "report_failed") ? 1 : 0;
    } finally {
      // What it could not settle is the proxy's (or the next run's) to look up at once.
      await reconciler.release();
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
  "consent_locale",
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
  const raw = escapeControls(value === null || value === undefined ? "" : String(value));
  const text = /^[=+\-@\t\r]/.test(raw) && !/^\+\d+$/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function runConsentsExport(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  out: Output,
  err: Output = out,
) {
  const format = (values.format as string | undefined) ?? "csv";
  if (format !== "csv" && format !== "json")
    throw new UsageError(`--format must be csv or json (got "${escapeControls(format)}")`);
  const from = since(values.since);
  const limit = count(values.limit, "--limit");
  const after = count(values.after, "--after");
  return withStore(env, out, false, async (store) => {
    if (format === "csv") out.write(CONSENT_COLUMNS.join(",") + "\r\n");
    const more = await eachPage(
      (cursor, want) => store.consentsPage(from ?? null, cursor, want),
      (record) => record.id,
      after ?? null,
      limit,
      async (records) => {
        await emit(
          out,
          format === "json"
            ? records.map(jsonLine).join("")
            : records
                .map((record) => CONSENT_COLUMNS.map((c) => csvCell(record[c])).join(",") + "\r\n")
                .join(""),
        );
      },
    );
    nextPage(err, "givekit consents export", more);
    return 0;
  });
}
