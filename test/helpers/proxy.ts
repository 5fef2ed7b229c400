/**
 * Starts the givekit proxy in-process for a test: 127.0.0.1 on an ephemeral port, a fresh
 * temporary data directory, the demo campaigns (proxy/campaigns.demo.json) and the demo Hope
 * Shelter tokens, in front of the upstream at `upstreamUrl` (usually a sandbox from
 * test/helpers/sandbox.ts). Every log line the proxy writes is kept in `logs`.
 *
 * @example
 * const sandbox = await startSandbox();
 * const proxy = await startProxy({ upstreamUrl: sandbox.url, allowedOrigins: ["http://127.0.0.1:5173"] });
 * afterAll(async () => { await proxy.close(); await sandbox.close(); });
 * await fetch(`${proxy.url}/v1/health`); // 200 {"status":"ok"}
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../proxy/config";
import { startProxyServer } from "../../proxy/listen";
import { DEMO } from "./sandbox";

export interface ProxyHandle {
  /** e.g. "http://127.0.0.1:43122" */
  url: string;
  close(): Promise<void>;
  /** Every log line (one JSON object per line) the proxy has written so far. */
  logs: string[];
  /** The proxy's data directory (store, signing secret); deleted by close(). */
  dataDir: string;
  /** The proxy's PostgreSQL database when it runs on one (a fresh one per proxy), else null. */
  databaseUrl: string | null;
}

export interface StartProxyOptions {
  upstreamUrl: string;
  /** Origins allowed to call the API and frame the card form (ALLOWED_ORIGINS). */
  allowedOrigins?: string[];
  /** Any other configuration variable, e.g. { GIVEKIT_RATE_DONATIONS: "100", UPSTREAM_TIMEOUT_MS: "1000" }. */
  env?: Record<string, string>;
  /** Where the proxy keeps its state: its data directory (default) or a fresh PostgreSQL database. */
  store?: "sqlite" | "postgres";
}

export async function startProxy(options: StartProxyOptions): Promise<ProxyHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), "givekit-proxy-"));
  const logs: string[] = [];
  // Loaded only when asked for: it needs Vitest, and the browser tests use this helper too.
  const databaseUrl = options.store === "postgres" ? await (await import("./postgres")).testDatabase() : null;
  const config = loadConfig({
    HOST: "127.0.0.1",
    PORT: "0",
    UPSTREAM_BASE_URL: options.upstreamUrl,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    ALLOWED_ORIGINS: (options.allowedOrigins ?? []).join(","),
    GIVEKIT_DATA_DIR: dataDir,
    // Tests post cards at machine speed; the form-time filter has tests of its own.
    GIVEKIT_MIN_FORM_MS: "0",
    ...(databaseUrl
      ? { DATABASE_URL: databaseUrl, GIVEKIT_SIGNING_SECRET: randomBytes(32).toString("hex") }
      : {}),
    ...options.env,
  });
  let running;
  try {
    running = await startProxyServer(config, {
      logDestination: {
        write(line: string) {
          logs.push(line.trimEnd());
        },
      },
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const server = running;
  return {
    url: server.url,
    logs,
    dataDir,
    databaseUrl,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
