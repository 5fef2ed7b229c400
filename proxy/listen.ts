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
import { createMetrics, instrumentStore, instrumentUpstream } from "./metrics";
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
/** How long requests still being answered get to finish when the proxy closes (unless told). */
const CLOSE_GRACE_MS = 1000;

export interface CloseOptions {
  /** How long requests in flight get to finish; default one second. */
  graceMs?: number;
  /** The signal that asked for the stop, for the log line. */
  signal?: string;
}

export interface RunningProxy {
  url: string;
  port: number;
  /** The longest a request in flight may still take: the upstream's connect and answer timeouts, and a second. */
  drainMs: number;
  /** Readiness answers 503 at once; no new connections; requests in flight get `graceMs`. */
  close(options?: CloseOptions): Promise<void>;
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
  const metrics = createMetrics();
  const store = instrumentStore(await openStore(config, logger), metrics);
  metrics.watchStore(store);
  const upstream = instrumentUpstream(createUpstreamClient(config.upstream), metrics);
  const lifecycle = { draining: false };
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

    const app = createApp({ config, logger, store, journalSecret, upstream, metrics, lifecycle });
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
  const drainMs = config.upstream.connectTimeoutMs + config.upstream.timeoutMs + 1000;
  return {
    url,
    port,
    drainMs,
    close(how = {}) {
      const graceMs = how.graceMs ?? CLOSE_GRACE_MS;
      if (closing) {
        // Asked again (a second signal): what is still in flight ends now.
        if (graceMs === 0) listening.server.closeAllConnections();
        return closing;
      }
      lifecycle.draining = true;
      for (const timer of timers) clearInterval(timer);
      const started = performance.now();
      logger.info({ signal: how.signal ?? null, graceMs }, "proxy stopping");
      closing = closeServer(listening.server, graceMs).then(async () => {
        upstream.close();
        await store
          .close()
          .catch((error: unknown) => logger.error({ error: String(error) }, "closing the store failed"));
        logger.info({ ms: Math.round(performance.now() - started) }, "proxy stopped");
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
