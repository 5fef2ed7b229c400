/** Opens the ledger, builds the app and serves it; close() ends every connection, even a hung one. */
import { closeServer, listen, type Listening } from "../http/listen";
import { createApp } from "./app";
import type { Fixture } from "./fixture";
import { openLedger } from "./ledger";

export interface SandboxServerOptions {
  fixture: Fixture;
  /** A file path, or ":memory:". */
  dbPath: string;
  host: string;
  /** 0 for an ephemeral port. */
  port: number;
  sessionTtlS: number;
  latencyMs: number;
  /** The clock the sandbox judges sessions and card expiries by; the system's by default. */
  now?: () => Date;
}

export interface RunningSandbox {
  /** e.g. "http://127.0.0.1:4010" */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts a sandbox server.
 *
 * @example
 * const sandbox = await startSandboxServer({ fixture, dbPath: ":memory:", host: "127.0.0.1", port: 0, sessionTtlS: 3600, latencyMs: 0 });
 * await sandbox.close();
 */
export async function startSandboxServer(options: SandboxServerOptions): Promise<RunningSandbox> {
  const ledger = openLedger(options.dbPath, options.fixture);
  const app = createApp({
    ledger,
    sessionTtlS: options.sessionTtlS,
    latencyMs: options.latencyMs,
    now: options.now,
  });
  let listening: Listening;
  try {
    listening = await listen(app.fetch, options.host, options.port);
  } catch (error) {
    ledger.close();
    throw error;
  }
  let closing: Promise<void> | undefined;

  return {
    url: listening.url,
    port: listening.port,
    close() {
      // No grace: that includes connections held open by the never-answering fault trigger.
      closing ??= closeServer(listening.server).then(() => {
        ledger.close();
      });
      return closing;
    },
  };
}
