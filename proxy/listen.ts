/**
 * Opens what the app needs (journal, upstream client, logger), listens, and closes it all
 * again. Used by server.ts, the test helper, `npm start` and the benchmark.
 */
import type { DestinationStream } from "pino";
import { closeServer, listen, type Listening } from "../http/listen";
import { createApp } from "./app";
import type { ProxyConfig } from "./config";
import { openJournal, resolveJournalSecret } from "./journal";
import { createLogger } from "./logger";
import { pendingBody } from "./routes/donations";
import { createUpstreamClient } from "./upstream/client";

/** How often idempotency records past their retention are deleted. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
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
  const journalSecret = resolveJournalSecret(config.dataDir, config.journalSecret);
  const journal = openJournal({ dataDir: config.dataDir, retentionH: config.idempotencyRetentionH });
  const upstream = createUpstreamClient(config.upstream);
  let purge: NodeJS.Timeout | undefined;
  let listening: Listening;
  try {
    const recovered = journal.recoverInterrupted(pendingBody);
    if (recovered > 0)
      logger.warn({ recovered }, "donation attempts left unfinished by a previous run are now unknown");
    journal.purgeExpired();
    purge = setInterval(() => journal.purgeExpired(), PURGE_INTERVAL_MS);
    purge.unref();

    const app = createApp({ config, logger, journal, journalSecret, upstream });
    listening = await listen(app.fetch, config.host, config.port);
  } catch (error) {
    // Not started (the port is taken, say): let the data directory go for the next try.
    clearInterval(purge);
    upstream.close();
    journal.close();
    throw error;
  }
  const { url, port } = listening;
  logger.info(
    { url, upstream: new URL(config.upstream.baseUrl).origin, campaigns: config.campaigns.length },
    "proxy listening",
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      clearInterval(purge);
      closing ??= closeServer(listening.server, CLOSE_GRACE_MS).then(() => {
        upstream.close();
        journal.close();
        return new Promise<void>((resolve) => logger.flush(() => resolve()));
      });
      return closing;
    },
  };
}
