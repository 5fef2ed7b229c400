/**
 * Opens what the app needs (store, upstream client, logger), listens, and closes it all
 * again. Used by server.ts, the test helper, `npm start` and the benchmark.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DestinationStream, Logger } from "pino";
import { closeServer, listen, type Listening } from "../http/listen";
import { createApp } from "./app";
import { packageRoot, type ProxyConfig } from "./config";
import { createLogger } from "./logger";
import { createMetrics, instrumentStore, instrumentUpstream } from "./metrics";
import { startJobs, type Jobs } from "./jobs";
import { createFormOutcomes } from "./dashboard/form-outcomes";
import { proxyCounters } from "./store/counters";
import { openStore, resolveSigningSecret, StoreOpenError, type Store } from "./store";
import { createUpstreamClient } from "./upstream/client";

/** How long requests still being answered get to finish when the proxy closes (unless told). */
const CLOSE_GRACE_MS = 1000;

export interface CloseOptions {
  /** How long requests in flight get to finish; default one second. */
  graceMs?: number;
  /** How long readiness answers 503 before the listener closes (GIVEKIT_STOP_DELAY_S); default none. */
  delayMs?: number;
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
  const signingSecret = resolveSigningSecret(config.dataDir, config.signingSecret);
  const metrics = createMetrics({ version: givekitVersion() });
  const store = instrumentStore(await openStoreRetrying(config, logger), metrics);
  const unwatch = metrics.watchStore(store);
  const upstream = instrumentUpstream(createUpstreamClient(config.upstream), metrics);
  const lifecycle = { draining: false };
  let jobs: Jobs | undefined;
  let listening: Listening;
  // One set for the routes and the jobs: a Pending gift's settling is counted under its session's marks.
  const counters = proxyCounters(store);
  try {
    jobs = await startJobs({
      store,
      upstream,
      logger,
      metrics,
      reconcileIntervalS: config.reconcileIntervalS,
      reconcileSettleS: config.reconcileSettleS,
      webhooks: config.webhooks,
      webhookBackoffMs: config.webhookBackoffMs,
      webhookGiveUpS: config.webhookGiveUpS,
      upstreamWatchS: config.upstreamWatchS,
      dashboardKeepDays: config.dashboard.keepDays,
      formOutcomes: createFormOutcomes({ store, counters, channelsCap: config.dashboard.channels }),
    });
    const app = createApp({ config, logger, store, signingSecret, upstream, metrics, lifecycle, counters });
    listening = await listen(app.fetch, config.host, config.port, { keepAliveMs: config.keepAliveMs });
  } catch (error) {
    // Not started (the port is taken, say): let the data directory go for the next try.
    await jobs?.stop();
    unwatch();
    upstream.close();
    await store.close();
    throw error;
  }
  const { url, port } = listening;
  for (const line of config.deprecations) logger.warn({ deprecated: true }, line);
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
  let forced = false;
  let cutDelay: (() => void) | undefined;
  const drainMs = config.upstream.connectTimeoutMs + config.upstream.timeoutMs + 1000;
  return {
    url,
    port,
    drainMs,
    close(how = {}) {
      const graceMs = how.graceMs ?? CLOSE_GRACE_MS;
      if (closing) {
        // Asked again (a second signal): what is still in flight ends now.
        if (graceMs === 0) {
          forced = true;
          cutDelay?.();
          listening.server.closeAllConnections();
          // The upstream calls in flight end too (their sockets destroyed), rather than holding
          // the process until the upstream answers or times out; an attempt whose call was
          // cut after it was sent stays unknown, for the reconciler.
          upstream.close();
        }
        return closing;
      }
      lifecycle.draining = true;
      // A reconcile pass under way finishes its attempt before the store closes, within the drain.
      const jobsStopped = jobs!.stop(drainMs);
      unwatch();
      const started = performance.now();
      const delayMs = how.delayMs ?? 0;
      logger.info({ signal: how.signal ?? null, delayMs, graceMs }, "proxy stopping");
      // Readiness says "stopping" for delayMs while everything is still served, so load
      // balancers stop sending before the listener closes; a second signal cuts it short.
      const delayed = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        cutDelay = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      closing = delayed
        .then(() => closeServer(listening.server, forced ? 0 : graceMs))
        .then(async () => {
          await jobsStopped;
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

/** The package's version (package.json), for givekit_build_info and `givekit --version`. */
export function givekitVersion(): string {
  try {
    return (
      (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version?: string })
        .version ?? "unknown"
    );
  } catch {
    return "unknown";
  }
}

/** Messages of a database that may answer in a moment (not a wrong password or a missing database). */
const TRANSIENT =
  /cannot connect|no answer|cannot find the host|starting up|shutting down|terminat|ECONN|timeout/i;

/**
 * Opens the store; a database that cannot be reached yet (PostgreSQL starting beside the proxy,
 * a failover) is tried again with a growing wait, up to GIVEKIT_STORE_START_WAIT_S, each try a
 * warning: a platform that starts everything at once does not see a crash loop.
 */
async function openStoreRetrying(config: ProxyConfig, logger: Logger): Promise<Store> {
  const deadline = performance.now() + config.storeStartWaitS * 1000;
  for (let attempt = 1, waitMs = 250; ; attempt++, waitMs = Math.min(waitMs * 2, 5000)) {
    try {
      const store = await openStore(config, { logger });
      if (attempt > 1) logger.info({ attempt }, "the database answers; starting");
      return store;
    } catch (error) {
      const transient =
        error instanceof StoreOpenError && error.variable === "DATABASE_URL" && TRANSIENT.test(error.message);
      if (!transient || performance.now() + waitMs > deadline) throw error;
      logger.warn(
        { attempt, retryInMs: waitMs, error: error.message },
        "the database cannot be reached yet; trying again (GIVEKIT_STORE_START_WAIT_S)",
      );
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
