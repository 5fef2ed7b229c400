/**
 * Opens the store the configuration names: PostgreSQL when DATABASE_URL is set, else SQLite in
 * GIVEKIT_DATA_DIR. Both implement Store (types.ts) and pass the same contract tests.
 */
import type { Logger } from "pino";
import type { ProxyConfig } from "../config";
import { openPostgresStore } from "./postgres";
import { openSqliteStore } from "./sqlite";
import { openSqliteBeside, type CliStore } from "./sqlite/beside";
import type { Store } from "./types";

export * from "./types";
export * from "./errors";
export type { CliStore } from "./sqlite/beside";
export { DataDirInUseError, resolveSigningSecret } from "./sqlite/data-dir";
export { SchemaTooNewError } from "./schema-version";

/** How long a request waits for a PostgreSQL connection before answering 503 store_unavailable. */
const DB_CONNECT_TIMEOUT_MS = 5000;

/**
 * The store the configuration names, opened once for the proxy and every `givekit` command. The
 * proxy owns it (SQLite: the data directory's lock, migrations, recovery); a command opens it
 * `beside` a proxy that may be running (SQLite: no lock, no migration, read-only unless it
 * writes). PostgreSQL is shared by every proxy and command alike.
 *
 * @example
 * const store = await openStore(loadConfig(process.env), { logger });
 * const forCommand = await openStore(config, { beside: { write: false } });
 */
export async function openStore(config: ProxyConfig, options?: { logger?: Logger }): Promise<Store>;
export async function openStore(
  config: ProxyConfig,
  options: { logger?: Logger; beside: { write: boolean } },
): Promise<CliStore>;
export async function openStore(
  config: ProxyConfig,
  { logger, beside }: { logger?: Logger; beside?: { write: boolean } } = {},
): Promise<Store | CliStore> {
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
  if (beside) return openSqliteBeside(config.dataDir, { readonly: !beside.write });
  return openSqliteStore({ ...common, dataDir: config.dataDir });
}
