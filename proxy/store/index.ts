/**
 * Opens the store the configuration names: PostgreSQL when DATABASE_URL is set, else SQLite in
 * GIVEKIT_DATA_DIR. Both implement Store (types.ts) and pass the same contract tests.
 */
import type { Logger } from "pino";
import type { ProxyConfig } from "../config";
import { openPostgresStore } from "./postgres";
import { openSqliteStore } from "./sqlite";
import type { Store } from "./types";

export * from "./types";
export { DataDirInUseError, resolveSigningSecret } from "./sqlite/data-dir";
export { SchemaTooNewError } from "./schema-version";

/** How long a request waits for a PostgreSQL connection before answering 503 store_unavailable. */
const DB_CONNECT_TIMEOUT_MS = 5000;

/**
 * @example
 * const store = await openStore(loadConfig(process.env), logger);
 */
export async function openStore(config: ProxyConfig, logger?: Logger): Promise<Store> {
  const common = { retentionH: config.idempotencyRetentionH, leaseMs: config.claimLeaseS * 1000 };
  if (config.databaseUrl) {
    return openPostgresStore({
      ...common,
      url: config.databaseUrl,
      poolMax: config.dbPoolMax,
      connectTimeoutMs: DB_CONNECT_TIMEOUT_MS,
      onError: (error) => logger?.warn({ error: error.message }, "a database connection failed"),
    });
  }
  return openSqliteStore({ ...common, dataDir: config.dataDir });
}
