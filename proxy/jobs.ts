/**
 * The proxy's background jobs, each on a timer of its own, all stopped together: the lease sweep,
 * the retention purge, the defence-mode exits, the reconciler and the webhook dispatcher. Safe
 * with any number of proxies: each sweep and purge is one statement, a purge another proxy is
 * running is skipped, the reconciler leases each attempt and the dispatcher each event (proxy/store).
 */
import type { Logger } from "pino";
import { campaignScope } from "./campaign/directory";
import type { FormOutcomes } from "./dashboard/form-outcomes";
import { pruneDashboardCounts } from "./dashboard/retention";
import { logDefenceExits } from "./defence/defence-mode";
import { createReconciler } from "./reconcile/reconciler";
import type { Metrics } from "./metrics";
import type { Store } from "./store";
import type { UpstreamClient } from "./upstream/client";
import { createAlerts, watchUpstream } from "./webhooks/alerts";
import { RETRY_FOR_MS } from "./webhooks/deliver";
import { createDispatcher, pollIntervalMs } from "./webhooks/dispatch";
import { shownEndpoint } from "./webhooks/endpoints";
import type { WebhookEndpoint } from "./webhooks/endpoints";

/** How often idempotency records past their retention (and expired rate-limit counters) are deleted. */
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** How often claims whose proxy died are looked for (a retry of the key finds them at once too). */
export const LEASE_SWEEP_INTERVAL_MS = 60 * 1000;
/** How often a defence period whose quiet time is over is looked for, so its end is logged without traffic. */
export const DEFENCE_EXIT_INTERVAL_MS = 5000;
/** The reconcile results that resolve an attempt (the others leave it unknown). */
const RESOLVED = new Set(["succeeded", "declined", "failed", "not_charged"]);

export interface Jobs {
  /**
   * Stops every timer at once; resolves once the webhook tries in flight have given their events
   * back and the reconcile pass under way (if any) has finished its attempt, or after `waitMs`
   * (the proxy's drain), whichever comes first: the store is not closed under a pass that can end.
   */
  stop(waitMs?: number): Promise<void>;
}

/**
 * Sweeps and purges once, then starts every job's timer (none keeps the process alive).
 *
 * @example
 * const jobs = await startJobs({ store, upstream, logger, reconcileIntervalS: 60, reconcileSettleS: 900 });
 * await jobs.stop(); // on close, before the store closes
 */
export async function startJobs(deps: {
  store: Store;
  upstream: UpstreamClient;
  logger: Logger;
  /** GIVEKIT_RECONCILE_INTERVAL_S (0: no reconciler on a timer). */
  reconcileIntervalS: number;
  reconcileSettleS: number;
  /** Counts the reconciler's passes and what they settled, and webhook tries, when given. */
  metrics?: Pick<Metrics, "reconcilePasses" | "reconcileSettled" | "webhookDeliveries">;
  /** GIVEKIT_WEBHOOKS: the dispatcher runs only when there is an endpoint. */
  webhooks?: readonly WebhookEndpoint[];
  /** GIVEKIT_WEBHOOK_BACKOFF_MS. */
  webhookBackoffMs?: number;
  /** GIVEKIT_WEBHOOK_GIVE_UP_S (3 days when not given). */
  webhookGiveUpS?: number;
  /** GIVEKIT_UPSTREAM_WATCH_S: the upstream's alert looks this often (10 s when not given). */
  upstreamWatchS?: number;
  /** GIVEKIT_DASHBOARD_KEEP_DAYS: the dashboard's counts of older hours are pruned with the purge. */
  dashboardKeepDays?: number;
  /** The dashboard's funnel: a Pending gift the reconciler settles becomes its session's thank-you or decline. */
  formOutcomes?: Pick<FormOutcomes, "settled">;
}): Promise<Jobs> {
  const { store, logger } = deps;
  await sweep(store, logger);
  await purge(store, logger);
  const pruning = deps.dashboardKeepDays === undefined ? null : pruneEvery(deps, deps.dashboardKeepDays);
  const timers = [
    setInterval(() => void sweep(store, logger), LEASE_SWEEP_INTERVAL_MS),
    setInterval(() => void purge(store, logger), PURGE_INTERVAL_MS),
    setInterval(
      () =>
        void logDefenceExits(store, logger).catch((error: unknown) =>
          logger.warn({ error: String(error) }, "defence exit sweep failed"),
        ),
      DEFENCE_EXIT_INTERVAL_MS,
    ),
  ];
  const reconciling = deps.reconcileIntervalS > 0 ? reconcileEvery(deps) : null;
  if (reconciling) timers.push(reconciling.timer);
  if (pruning) timers.push(pruning.timer);
  for (const timer of timers) timer.unref();
  const webhooks = deps.webhooks ?? [];
  const backoffMs = deps.webhookBackoffMs ?? 30_000;
  const giveUpS = deps.webhookGiveUpS ?? RETRY_FOR_MS / 1000;
  const alerts = createAlerts({ store, endpoints: webhooks, logger });
  const dispatcher =
    webhooks.length > 0
      ? createDispatcher({
          store,
          endpoints: webhooks,
          backoffBaseMs: backoffMs,
          logger,
          onOutcome: (outcome) => deps.metrics?.webhookDeliveries.inc({ outcome }),
          retryForMs: giveUpS * 1000,
          // An alert about an alert given up would only follow it to the same dead endpoint.
          onGiveUp: (row) => {
            if (row.event_type.startsWith("alert.")) return;
            void alerts.tell("alert.webhooks_given_up", {
              summary: `A ${row.event_type} event was given up after ${spanOf(giveUpS)} of failed deliveries to ${shownEndpoint(row.endpoint)}: run givekit webhooks retry once it answers.`,
              scope: shownEndpoint(row.endpoint),
              endpoint: shownEndpoint(row.endpoint),
              event_type: row.event_type,
            });
          },
        })
      : null;
  if (alerts.wanted("alert.upstream_unreachable"))
    timers.push(
      watchUpstream({ alerts, upstream: deps.upstream, lookMs: (deps.upstreamWatchS ?? 10) * 1000 }).timer,
    );
  dispatcher?.start(pollIntervalMs(backoffMs));
  return {
    async stop(waitMs = 0) {
      for (const timer of timers) clearInterval(timer);
      let bound: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (bound = setTimeout(resolve, waitMs)));
      await Promise.all([dispatcher?.stop(), pruning?.stop(), Promise.race([reconciling?.stop(), waited])]);
      clearTimeout(bound);
    },
  };
}

/**
 * The reconciler on its timer; a pass still running (a slow report) is not overlapped by the next.
 * `stop()` starts no further pass nor attempt and resolves once the pass under way has ended.
 */
function reconcileEvery(deps: Parameters<typeof startJobs>[0]): {
  timer: NodeJS.Timeout;
  stop(): Promise<void>;
} {
  const { logger } = deps;
  const reconciler = createReconciler({
    store: deps.store,
    upstream: deps.upstream,
    settleS: deps.reconcileSettleS,
    warn: (fields, message) => logger.warn(fields, message),
    webhooks: deps.webhooks,
    // Beside the pass: a session's outcome may wait a few seconds for its channel (form-outcomes.ts).
    onSettled: (attempt, outcome) => {
      if (attempt.form_session && deps.formOutcomes)
        void deps.formOutcomes
          .settled({ id: attempt.form_session, campaign: campaignScope(attempt) }, outcome.state)
          .catch((error: unknown) => logger.warn({ error: String(error) }, "a settled gift was not counted"));
    },
  });
  return everyInBackground(
    (signal) =>
      reconciler
        .pass({ signal })
        .then((steps) => {
          deps.metrics?.reconcilePasses.inc({ result: "ok" });
          // One line per attempt this proxy resolved: with several proxies, the lines of all of
          // them together name each attempt once.
          for (const step of steps) {
            if (RESOLVED.has(step.result)) {
              deps.metrics?.reconcileSettled.inc({ state: step.result });
              logger.info(
                { reference: step.reference, state: step.result, transaction_id: step.transaction_id },
                "attempt reconciled",
              );
            }
          }
        })
        .catch((error: unknown) => {
          deps.metrics?.reconcilePasses.inc({ result: "failed" });
          logger.warn({ error: String(error) }, "reconcile pass failed");
        }),
    deps.reconcileIntervalS * 1000,
  );
}

const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? "" : "s"}`;

/** A span of seconds as a person reads it: "3 days", "2 hours", "90 s". */
function spanOf(seconds: number): string {
  if (seconds % 86_400 === 0) return unit(seconds / 86_400, "day");
  if (seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  return `${seconds} s`;
}

/** Claims whose proxy died: their attempts become unknown (202 Pending), never sent again. */
async function sweep(store: Pick<Store, "expireLeases">, logger: Logger): Promise<void> {
  try {
    const expired = await store.expireLeases();
    if (expired > 0)
      logger.warn({ expired }, "donation attempts whose proxy stopped before their answer are now unknown");
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : String(error) }, "lease sweep failed");
  }
}

/** Idempotency records past their retention; consent records are never purged. */
async function purge(store: Pick<Store, "purgeExpired">, logger: Logger): Promise<void> {
  try {
    await store.purgeExpired();
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : String(error) }, "retention purge failed");
  }
}

/**
 * The dashboard's counts of hours older than `keepDays` pruned now and then every PURGE_INTERVAL_MS,
 * in the background (a first start after months may have many to prune: the proxy does not wait
 * for them); `stop()` ends the pruning under way after its batch.
 */
function pruneEvery(
  deps: { store: Pick<Store, "pruneDashboardCounts">; logger: Logger },
  keepDays: number,
): { timer: NodeJS.Timeout; stop(): Promise<void> } {
  return everyInBackground(
    (signal) =>
      pruneDashboardCounts(deps.store, keepDays, Date.now(), { signal })
        .then(() => undefined)
        .catch((error: unknown) =>
          deps.logger.warn(
            { error: error instanceof Error ? error.message : String(error) },
            "dashboard counts' retention failed",
          ),
        ),
    PURGE_INTERVAL_MS,
    { now: true },
  );
}

/**
 * `work` every `intervalMs` (and at once with `now`), never two at a time: a run still going
 * when the timer fires is not overlapped. `stop()` aborts the signal it was handed, starts no
 * further run and resolves once the run under way has ended.
 */
function everyInBackground(
  work: (signal: AbortSignal) => Promise<void>,
  intervalMs: number,
  { now = false } = {},
): { timer: NodeJS.Timeout; stop(): Promise<void> } {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  const run = () => {
    if (running || stopping.signal.aborted) return;
    running = work(stopping.signal).finally(() => (running = undefined));
  };
  if (now) run();
  const timer = setInterval(run, intervalMs);
  return {
    timer,
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
