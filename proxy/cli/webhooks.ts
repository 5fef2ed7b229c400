/**
 * `givekit webhooks list|retry|replay`: the webhook outbox (proxy/webhooks), read from and
 * written to the same store as the proxy. A listing shows an event's id, type, endpoint (its
 * origin and path: never a query string or credentials), state, tries and last error; never the
 * endpoint's secret.
 */
import type { OutboxRow, OutboxState } from "../store";
import { shownEndpoint } from "../webhooks/endpoints";
import { escapeControls, jsonLine } from "./escape";
import type { Output } from "./output";
import { count, eachPage, emit, nextPage, since, UsageError, withStore } from "./ops";

export const OUTBOX_STATES: readonly OutboxState[] = ["pending", "delivered", "dead", "held"];

const iso = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());

const COLUMNS = [
  "event_id",
  "type",
  "endpoint",
  "state",
  "tries",
  "last_status",
  "last_error",
  "created_at",
  "next_at",
] as const;

function shownRow(row: OutboxRow): Record<(typeof COLUMNS)[number], string | number | null> {
  return {
    event_id: row.event_id,
    type: row.event_type,
    endpoint: shownEndpoint(row.endpoint),
    state: row.state,
    tries: row.attempts,
    last_status: row.last_status,
    last_error: row.last_error,
    created_at: iso(row.created_at),
    next_at: row.state === "pending" ? iso(row.next_at) : iso(row.done_at),
  };
}

function filterOf(values: Record<string, unknown>) {
  const state = values.state as string | undefined;
  if (state !== undefined && !OUTBOX_STATES.includes(state as OutboxState)) {
    throw new UsageError(
      `--state must be one of ${OUTBOX_STATES.join(", ")} (got "${escapeControls(state)}")`,
    );
  }
  const from = since(values.since);
  return {
    ...(from ? { since: Date.parse(from) } : {}),
    ...(typeof values.endpoint === "string" ? { endpoint: values.endpoint } : {}),
    ...(state ? { state: state as OutboxState } : {}),
  };
}

export async function runWebhooksList(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  out: Output,
  err: Output = out,
) {
  const filter = filterOf(values);
  const limit = count(values.limit, "--limit");
  const after = values.after === undefined ? null : count(values.after, "--after")!;
  return withStore(env, out, false, async (store) => {
    let widths: number[] | null = null;
    let shown = 0;
    const more = await eachPage(
      (cursor, want) => store.webhooksPage(filter, cursor, want),
      (row) => row.seq,
      after,
      limit,
      async (rows) => {
        shown += rows.length;
        const printed = rows.map(shownRow);
        if (values.json) {
          await emit(out, printed.map(jsonLine).join(""));
          return;
        }
        const cells = printed.map((row) =>
          COLUMNS.map((column) => escapeControls(String(row[column] ?? ""))),
        );
        let text = "";
        if (!widths) {
          widths = COLUMNS.map((column, i) => Math.max(column.length, ...cells.map((row) => row[i]!.length)));
          text = `${COLUMNS.map((column, i) => column.padEnd(widths![i]!))
            .join("  ")
            .trimEnd()}\n`;
        }
        text += cells
          .map(
            (row) =>
              `${row
                .map((cell, i) => cell.padEnd(widths![i]!))
                .join("  ")
                .trimEnd()}\n`,
          )
          .join("");
        await emit(out, text);
      },
    );
    if (shown === 0 && !values.json) out.write("No webhook events.\n");
    // The cursor is the outbox's own order (its seq), as --after takes it.
    nextPage(err, "givekit webhooks list", more);
    return 0;
  });
}

/** `retry`: given-up and waiting events are due now. `replay`: delivered ones too (same ids). */
export function runWebhooksRequeue(mode: "retry" | "replay") {
  return async (values: Record<string, unknown>, env: NodeJS.ProcessEnv, out: Output) => {
    if (mode === "replay" && values.since === undefined) {
      throw new UsageError("--since is required: replay sends again every event made since then");
    }
    const filter = filterOf(values);
    return withStore(env, out, true, async (store) => {
      const changed = await store.requeueWebhooks(filter, mode);
      out.write(
        mode === "retry"
          ? `${changed} event(s) not yet delivered are due now; the running proxy sends them within a second or so.\n`
          : `${changed} event(s) are due again (delivered ones included, with their same ids); the running proxy sends them within a second or so.\n`,
      );
      return 0;
    });
  };
}
