/**
 * Opens what the app needs (journal, upstream client, logger), listens, and closes it all
 * again. Used by server.ts, the test helper, `npm start` and the benchmark.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { DestinationStream } from "pino";
import { createApp } from "./app";
import type { ProxyConfig } from "./config";
import { openJournal, resolveJournalSecret } from "./journal";
import { createLogger } from "./logger";
import { pendingBody } from "./routes/donations";
import { createUpstreamClient } from "./upstream/client";

/** How often idempotency records past their retention are deleted. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

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
  const journalSecret = resolveJournalSecret(config.dataDir, config.journalSecret);
  const journal = openJournal({ dataDir: config.dataDir, retentionH: config.idempotencyRetentionH });
  const upstream = createUpstreamClient(config.upstream);
  let purge: NodeJS.Timeout | undefined;
  let server: ReturnType<typeof serve>;
  try {
    const recovered = journal.recoverInterrupted(pendingBody);
    if (recovered > 0)
      logger.warn({ recovered }, "donation attempts left unfinished by a previous run are now unknown");
    journal.purgeExpired();
    purge = setInterval(() => journal.purgeExpired(), PURGE_INTERVAL_MS);
    purge.unref();

    const app = createApp({ config, logger, journal, journalSecret, upstream });
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const created = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
        resolve(created),
      );
      created.once("error", reject);
    });
  } catch (error) {
    // Not started (the port is taken, say): let the data directory go for the next try.
    clearInterval(purge);
    upstream.close();
    journal.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  logger.info(
    { url, upstream: new URL(config.upstream.baseUrl).origin, campaigns: config.campaigns.length },
    "proxy listening",
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(purge);
        server.close(() => {
          upstream.close();
          journal.close();
          logger.flush(() => resolve());
        });
        // Idle keep-alive connections would hold close() open.
        if ("closeIdleConnections" in server) server.closeIdleConnections();
        setTimeout(() => {
          if ("closeAllConnections" in server) server.closeAllConnections();
        }, 1000).unref();
      });
      return closing;
    },
  };
}
