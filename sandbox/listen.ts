/** Opens the store, builds the app and serves it; close() ends every connection, even a hung one. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import type { Fixture } from "./fixture";
import { openStore } from "./store";

export interface SandboxServerOptions {
  fixture: Fixture;
  /** A file path, or ":memory:". */
  dbPath: string;
  host: string;
  /** 0 for an ephemeral port. */
  port: number;
  sessionTtlS: number;
  latencyMs: number;
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
  const store = openStore(options.dbPath, options.fixture);
  const app = createApp({ store, sessionTtlS: options.sessionTtlS, latencyMs: options.latencyMs });
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const created = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, () =>
        resolve(created as Server),
      ) as Server;
      created.once("error", reject);
    });
  } catch (error) {
    store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${host}:${port}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        // Includes connections held open by the never-answering fault trigger.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
