/**
 * `givekit serve` (and `npm run proxy`): reads the configuration, migrates the store, listens,
 * and on SIGTERM or SIGINT stops gracefully: no new connections, readiness answers 503,
 * requests in flight finish (up to the upstream's timeouts), then it resolves with 0.
 *
 * @example
 * process.exitCode = await runServe(process.env, process.stderr);
 */
import { configOrSay } from "./load-config";
import { startProxyServer, type RunningProxy } from "../listen";
import { DataDirInUseError, SchemaTooNewError, StoreOpenError } from "../store";
import type { Output } from "./main";

/** What stops the proxy; a second one stops it at once, whatever is in flight. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

export async function runServe(env: NodeJS.ProcessEnv, err: Output): Promise<number> {
  const config = configOrSay(env, err, "givekit proxy");
  if (!config) return 1;

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
        // A second signal: whoever sent it will not wait; what is in flight ends now (exit 1).
        forced = true;
        void running.close({ graceMs: 0, signal });
        return;
      }
      stopping = true;
      void running.close({ signal, graceMs: running.drainMs }).then(() => {
        for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
        resolve(forced ? 1 : 0);
      });
    };
    for (const name of STOP_SIGNALS) process.on(name, onSignal);
  });
  err.write(`givekit proxy listening on ${running.url}\n`);
  return stopped;
}
