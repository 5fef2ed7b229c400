/**
 * Opens what the app needs (store, upstream client, logger), listens, and closes it all
 * again. Used by server.ts, the test helper, `npm start` and the benchmark.
 */
import type { DestinationStream, Logger } from "pino";
import { closeServer, listen, type Listening } from "../http/listen";
import { createApp } from "./app";
import type { ProxyConfig } from "./config";
import { logDefenceExits } from "./defence/defence-mode";
import { createLogger } from "./logger";
import { createReconciler } from "./reconcile/reconciler";
import { openStore, resolveJournalSecret, type Store } from "./store";
import { createUpstreamClient } from "./upstream/client";

/** How often idempotency records past their retention (and expired rate-limit counters) are deleted. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** How often claims whose proxy died are looked for (a retry of the key finds them at once too). */
const LEASE_SWEEP_INTERVAL_MS = 60 * 1000;
/** The reconcile results that resolve an attempt (the others leave it unknown). */
const RESOLVED = new Set(["succeeded", "declined", "failed", "not_charged"]);
/** How often a defence period whose quiet time is over is looked for, so its end is logged without traffic. */
const DEFENCE_EXIT_INTERVAL_MS = 5000;
/** How long requests still being answered get to finish when the proxy closes. */
const CLOSE_GRACE_MS = 1000;

export interface RunningProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * @example
 * const proxy = await startProxyServer(loadConfig(process.env));
 * console.log(proxy.url); // http://127.0.0.1:8787
 */
export async function startProxyServer(
  config: ProxyConfig,
  options: { logDestination?: DestinationStream } = {},
): Promise<RunningProxy> {
  const logger = createLogger(config.logLevel, options.logDestination);
  // With DATABASE_URL the secret is required (config.ts): every proxy must use the same one.
  const journalSecret = resolveJournalSecret(config.dataDir, config.journalSecret);
  const store = await openStore(config, logger);
  const upstream = createUpstreamClient(config.upstream);
  const timers: NodeJS.Timeout[] = [];
  let listening: Listening;
  try {
    await sweep(store, logger);
    await purge(store, logger);
    // Safe with any number of proxies: each sweep and purge is one statement, and a purge that
    // another proxy is running is skipped (proxy/store).
    timers.push(setInterval(() => void sweep(store, logger), LEASE_SWEEP_INTERVAL_MS));
    timers.push(setInterval(() => void purge(store, logger), PURGE_INTERVAL_MS));
    timers.push(
      setInterval(
        () =>
          void logDefenceExits(store, logger).catch((error: unknown) =>
            logger.warn({ error: String(error) }, "defence exit sweep failed"),
          ),
        DEFENCE_EXIT_INTERVAL_MS,
      ),
    );
    const reconciler = createReconciler({
      store,
      upstream,
      settleS: config.reconcileSettleS,
      warn: (fields, message) => logger.warn(fields, message),
    });
    let reconciling = false;
    if (config.reconcileIntervalS > 0) {
      timers.push(
        setInterval(() => {
          // A pass still running (a slow report) is not overlapped by the next.
          if (reconciling) return;
          reconciling = true;
          void reconciler
            .pass()
            .then((steps) => {
              // One line per attempt this proxy resolved: with several proxies, the lines of all
              // of them together name each attempt once.
              for (const step of steps) {
                if (RESOLVED.has(step.result)) {
                  logger.info(
                    { reference: step.reference, state: step.result, transaction_id: step.transaction_id },
                    "attempt reconciled",
                  );
                }
              }
            })
            .catch((error: unknown) => logger.warn({ error: String(error) }, "reconcile pass failed"))
            .finally(() => (reconciling = false));
        }, config.reconcileIntervalS * 1000),
      );
    }
    for (const timer of timers) timer.unref();

    const app = createApp({ config, logger, store, journalSecret, upstream });
    listening = await listen(app.fetch, config.host, config.port);
  } catch (error) {
    // Not started (the port is taken, say): let the data directory go for the next try.
    for (const timer of timers) clearInterval(timer);
    upstream.close();
    await store.close();
    throw error;
  }
  const { url, port } = listening;
  logger.info(
    {
      url,
      upstream: new URL(config.upstream.baseUrl).origin,
      campaigns: config.campaigns.length,
      store: store.kind,
    },
    "proxy listening",
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      for (const timer of timers) clearInterval(timer);
      closing ??= closeServer(listening.server, CLOSE_GRACE_MS).then(async () => {
        upstream.close();
        await store
          .close()
          .catch((error: unknown) => logger.warn({ error: String(error) }, "closing the store failed"));
        await new Promise<void>((resolve) => logger.flush(() => resolve()));
      });
      return closing;
    },
  };
}

/** Claims whose proxy died: their attempts become unknown (202 Pending), never sent again. */
async function sweep(store: Store, logger: Logger): Promise<void> {
  try {
    const expired = await store.expireLeases();
    if (expired > 0)
      logger.warn({ expired }, "donation attempts whose proxy stopped before their answer are now unknown");
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : String(error) }, "lease sweep failed");
  }
}

/** Idempotency records past their retention; consent records are never purged. */
async function purge(store: Store, logger: Logger): Promise<void> {
  try {
    await store.purgeExpired();
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : String(error) }, "retention purge failed");
  }
}
