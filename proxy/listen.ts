/**
 * Opens what the app needs (store, upstream client, logger), listens, and closes it all
 * again. Used by server.ts, the test helper, `npm start` and the benchmark.
 */
import type { DestinationStream } from "pino";
import { closeServer, listen, type Listening } from "../http/listen";
import { createApp } from "./app";
import type { ProxyConfig } from "./config";
import { createLogger } from "./logger";
import { createMetrics, instrumentStore, instrumentUpstream } from "./metrics";
import { startJobs, type Jobs } from "./jobs";
import { openStore, resolveSigningSecret } from "./store";
import { createUpstreamClient } from "./upstream/client";

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
  const signingSecret = resolveSigningSecret(config.dataDir, config.signingSecret);
  const metrics = createMetrics();
  const store = instrumentStore(await openStore(config, { logger }), metrics);
  metrics.watchStore(store);
  const upstream = instrumentUpstream(createUpstreamClient(config.upstream), metrics);
  const lifecycle = { draining: false };
  let jobs: Jobs | undefined;
  let listening: Listening;
  try {
    jobs = await startJobs({
      store,
      upstream,
      logger,
      reconcileIntervalS: config.reconcileIntervalS,
      reconcileSettleS: config.reconcileSettleS,
    });
    const app = createApp({ config, logger, store, signingSecret, upstream, metrics, lifecycle });
    listening = await listen(app.fetch, config.host, config.port);
  } catch (error) {
    // Not started (the port is taken, say): let the data directory go for the next try.
    jobs?.stop();
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
      jobs!.stop();
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
