/**
 * `givekit serve` (and `npm run proxy`): reads the configuration, migrates the store, listens,
 * and on SIGTERM or SIGINT stops gracefully: no new connections, readiness answers 503,
 * requests in flight finish (up to the upstream's timeouts), then it resolves with 0.
 *
 * @example
 * process.exitCode = await runServe(process.env, process.stderr);
 */
import { DEFAULT_CAMPAIGNS_PATH, type ProxyConfig } from "../config";
import { configOrSay } from "./load-config";
import { startProxyServer, type RunningProxy } from "../listen";
import { DataDirInUseError, SchemaTooNewError, StoreOpenError } from "../store";
import type { Output } from "./output";

/** What stops the proxy; a second one stops it at once, whatever is in flight. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;
/** After a second signal, what closing still does gets this long (the log's last lines), no more. */
const FORCED_EXIT_MS = 200;

/**
 * What must not be served in production without saying so: the demo campaigns, and no page
 * allowed to use the widget (ALLOWED_ORIGINS empty).
 *
 * @example
 * productionProblems(config, "production"); // ["GIVEKIT_CAMPAIGNS is the demo file …"]
 */
export function productionProblems(config: ProxyConfig, nodeEnv: string | undefined): string[] {
  if (nodeEnv !== "production") return [];
  const problems: string[] = [];
  if (config.campaignsPath === DEFAULT_CAMPAIGNS_PATH)
    problems.push(
      "GIVEKIT_CAMPAIGNS is the demo campaigns file, with NODE_ENV=production: set GIVEKIT_CAMPAIGNS to your own campaigns file",
    );
  if (config.allowedOrigins.length === 0)
    problems.push(
      "ALLOWED_ORIGINS is empty, with NODE_ENV=production: no page may use the widget; set it to your site's origins (https://www.example.org)",
    );
  return problems;
}

export async function runServe(env: NodeJS.ProcessEnv, err: Output): Promise<number> {
  const config = configOrSay(env, err, "givekit proxy");
  if (!config) return 1;
  const unsafe = productionProblems(config, env.NODE_ENV);
  if (unsafe.length > 0 && !config.allowDemoSetup) {
    for (const line of unsafe) err.write(`givekit proxy: ${line}\n`);
    err.write(
      "givekit proxy: not started. Fix the above, or set GIVEKIT_ALLOW_DEMO_SETUP=true to serve it as it is (a demonstration).\n",
    );
    return 1;
  }

  let proxy: RunningProxy;
  try {
    proxy = await startProxyServer(config);
  } catch (error) {
    if (error instanceof StoreOpenError) {
      err.write(`givekit proxy: cannot open the database: ${error.message}\n`);
    } else if (error instanceof SchemaTooNewError) {
      err.write(`givekit proxy: cannot use the database: ${error.message}\n`);
    } else if (error instanceof DataDirInUseError) {
      err.write(`givekit proxy: ${error.message}\n`);
    } else {
      throw error;
    }
    return 1;
  }
  const running = proxy;
  // Handlers first: a stop signal sent as soon as the line below is read must find them.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    let forced = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second signal: whoever sent it will not wait; what is in flight ends now (exit 1),
        // without waiting for the store or the log (the attempt's record says what was sent).
        if (forced) return;
        forced = true;
        void running.close({ graceMs: 0, signal });
        for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
        setTimeout(() => resolve(1), FORCED_EXIT_MS);
        // Whatever still holds the event loop then (a handle nobody closed) does not hold the exit.
        setTimeout(() => process.exit(1), FORCED_EXIT_MS * 4).unref();
        return;
      }
      stopping = true;
      void running.close({ signal, graceMs: running.drainMs, delayMs: config.stopDelayMs }).then(() => {
        for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
        resolve(forced ? 1 : 0);
      });
    };
    for (const name of STOP_SIGNALS) process.on(name, onSignal);
  });
  err.write(`givekit proxy listening on ${running.url}\n`);
  return stopped;
}
