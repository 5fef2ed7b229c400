/**
 * The reconciler: each attempt left `unknown` (sent, no answer) is looked up in the upstream's
 * transactions report and resolved, exactly or not at all. One pass leases each attempt first,
 * so with several proxies on one store an attempt is reconciled by one of them at a time.
 */
import { randomBytes } from "node:crypto";
import { fromCents, toCents } from "../../contract/money";
import { reportDateOf, type TransactionRow } from "../../contract/upstream";
import type { AttemptRecord, Reconciliation, Store } from "../store";
import type { UpstreamClient } from "../upstream/client";
import type { WebhookEndpoint } from "../webhooks/endpoints";
import { outboxRows, settledEvents } from "../webhooks/from-attempt";
import { matchAttempts, mayConcern } from "./match";

export interface ReconcilerOptions {
  store: Pick<
    Store,
    | "listAttempts"
    | "leaseReconcile"
    | "releaseReconcile"
    | "resolveUnknown"
    | "noteUnknown"
    | "claimedTransactions"
  >;
  upstream: Pick<UpstreamClient, "eachTransaction">;
  /** GIVEKIT_RECONCILE_SETTLE_S: no row after this long → `not_charged`. */
  settleS: number;
  /** Who holds the leases; random per process unless given. */
  owner?: string;
  now?: () => number;
  warn?: (fields: Record<string, unknown>, message: string) => void;
  /** GIVEKIT_WEBHOOKS: `donation.settled` is written with each resolution (proxy/webhooks). */
  webhooks?: readonly WebhookEndpoint[];
  /** Told once of each attempt this reconciler resolved (the dashboard's funnel counts its outcome). */
  onSettled?: (attempt: AttemptRecord, outcome: Reconciliation) => void;
}

/** What one pass did to one attempt (the CLI prints one line per attempt). */
export interface ReconcileStep {
  reference: string;
  result: Reconciliation["state"] | "unknown" | "leased_elsewhere" | "report_failed";
  transaction_id?: string | null;
  note?: string;
}

/** How long a pass holds an attempt: longer than a report takes to be ready. */
const LEASE_MS = 120_000;
/** A report's own time limit, within the lease: a big account's narrow report still streams for a while. */
export const RECONCILE_REPORT_TIMEOUT_MS = 100_000;
const DAY_MS = 86_400_000;

/**
 * @example
 * const reconciler = createReconciler({ store, upstream, settleS: 900 });
 * for (const step of await reconciler.pass()) console.log(step.reference, step.result);
 */
export function createReconciler(options: ReconcilerOptions) {
  const now = options.now ?? Date.now;
  const owner = options.owner ?? `proxy-${randomBytes(8).toString("hex")}`;
  const settleMs = options.settleS * 1000;

  async function reconcileOne(attempt: AttemptRecord, unknown: AttemptRecord[]): Promise<ReconcileStep> {
    const reference = attempt.reference;
    if (!(await options.store.leaseReconcile(reference, owner, LEASE_MS))) {
      return { reference, result: "leased_elsewhere" };
    }
    // The narrowest report the upstream filters allow: this campaign, this charged amount, the
    // days the attempt's row can carry (a day either side: the upstream's day may not be UTC's).
    const amount = fromCents(toCents(attempt.amount));
    const createdAt = Date.parse(attempt.created_at);
    const rivals = unknown.filter(
      (other) =>
        other.shortcode === attempt.shortcode &&
        other.keyword === attempt.keyword &&
        toCents(other.amount) === toCents(attempt.amount),
    );
    const references = new Set(rivals.map((other) => other.reference));
    // Only the rows that can bear on these attempts are kept as the report streams by.
    const rows: TransactionRow[] = [];
    let skipped;
    try {
      ({ skipped } = await options.upstream.eachTransaction(
        {
          shortcode: attempt.shortcode,
          keyword: attempt.keyword,
          amount_min: amount,
          amount_max: amount,
          start_date: reportDateOf(new Date(createdAt - DAY_MS)),
          end_date: reportDateOf(new Date(Math.min(now(), createdAt + settleMs) + DAY_MS)),
        },
        (row) => {
          if (mayConcern(row, references)) rows.push(row);
        },
        { timeoutMs: RECONCILE_REPORT_TIMEOUT_MS },
      ));
    } catch (error) {
      options.warn?.(
        { reference, error: error instanceof Error ? error.message : String(error) },
        "the transactions report failed; the attempt stays unknown until the next pass",
      );
      return { reference, result: "report_failed" };
    }
    if (skipped > 0) {
      options.warn?.(
        { reference, skipped },
        "report rows of an unexpected shape were skipped, never matched",
      );
    }
    // Transaction ids already given to an attempt are never given to a second: the store is asked
    // about the ids of these few rows only, never for every attempt it keeps.
    const claimed = new Set(await options.store.claimedTransactions(rows.map((row) => row.transaction_id)));
    // Every unknown attempt the same rows could belong to is matched together: a row that fits
    // two of them is given to neither.
    const resolution = matchAttempts(
      rivals.map((other) => ({
        reference: other.reference,
        shortcode: other.shortcode,
        keyword: other.keyword,
        charged: other.amount,
        createdAt: other.created_at,
      })),
      rows,
      { windowMs: settleMs, claimed },
    ).get(reference)!;
    const settledAt = Date.parse(attempt.created_at) + settleMs;
    let outcome: Reconciliation | null = null;
    let note: string;
    switch (resolution.kind) {
      case "charged":
        outcome = { state: "succeeded", transaction_id: resolution.transactionId };
        break;
      case "refused":
        outcome = { state: resolution.status, transaction_id: null };
        break;
      case "absent":
        if (now() >= settledAt) outcome = { state: "not_charged", transaction_id: null };
        note = `waiting until ${new Date(settledAt).toISOString()}: no transaction in the report yet`;
        break;
      case "ambiguous":
        note = `ambiguous, for a person to decide: ${resolution.why}`;
        break;
    }
    if (outcome) {
      const events = outboxRows(options.webhooks ?? [], settledEvents(attempt, outcome));
      const resolved = await options.store.resolveUnknown(reference, outcome, events);
      if (resolved) options.onSettled?.(attempt, outcome);
      return resolved
        ? { reference, result: outcome.state, transaction_id: outcome.transaction_id }
        : { reference, result: "leased_elsewhere" };
    }
    await options.store.noteUnknown(reference, note!);
    return { reference, result: "unknown", note: note! };
  }

  return {
    owner,
    /**
     * One pass over every unknown attempt (or only `reference`). Once `signal` is aborted (the
     * proxy is stopping) no further attempt is started; the one under way finishes.
     */
    async pass(only?: { reference?: string; signal?: AbortSignal }): Promise<ReconcileStep[]> {
      const unknown = await options.store.listAttempts({ state: "unknown" });
      const steps: ReconcileStep[] = [];
      for (const attempt of unknown) {
        if (only?.signal?.aborted) break;
        if (only?.reference && attempt.reference !== only.reference) continue;
        steps.push(await reconcileOne(attempt, unknown));
      }
      return steps;
    },
    /**
     * Gives back the leases this reconciler took. A pass run by hand ends with it, so the
     * proxy's next pass (or a second run) need not wait out the leases; the proxy's own timer
     * keeps them, so that several proxies do not look the same attempt up one after another.
     */
    async release(): Promise<void> {
      await options.store.releaseReconcile(owner);
    },
  };
}
