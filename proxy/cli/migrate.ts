/**
 * `givekit migrate`: brings the store's schema to this version and stops, for a release step
 * before the new proxies start (the proxy still migrates at start; this makes it a no-op). A
 * schema newer than this version knows is refused, both versions named, exit 1: an older
 * release must not run on a newer database.
 */
import { existsSync } from "node:fs";
import { openSqlite } from "../../sqlite/open";
import { Client } from "pg";
import type { ProxyConfig } from "../config";
import { configOrSay } from "./load-config";
import { DataDirInUseError, openStore, SchemaTooNewError, StoreOpenError } from "../store";
import { POSTGRES_SCHEMA_VERSION } from "../store/postgres/schema";
import { dbFileIn, inDataDir } from "../store/sqlite/data-dir";
import { SQLITE_SCHEMA_VERSION } from "../store/sqlite/schema";
import type { Output } from "./output";

/** The schema version a store is at now (0: none yet), read without changing anything. */
async function currentVersion(config: ProxyConfig): Promise<number> {
  if (!config.databaseUrl) {
    const path = dbFileIn(config.dataDir);
    if (!existsSync(path)) return 0;
    return inDataDir(config.dataDir, () => {
      const db = openSqlite(path, { readonly: true, fileMustExist: true });
      try {
        return db.pragma("user_version", { simple: true }) as number;
      } finally {
        db.close();
      }
    });
  }
  const client = new Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ version: number }>("SELECT version FROM givekit_schema LIMIT 1");
    return rows[0]?.version ?? 0;
  } catch {
    // No table yet (or the database is out of reach, which opening the store will say).
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function runMigrate(_values: Record<string, unknown>, env: NodeJS.ProcessEnv, out: Output) {
  const config = configOrSay(env, out, "givekit migrate");
  if (!config) return 1;
  const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `SQLite database in ${config.dataDir}`;
  const known = config.databaseUrl ? POSTGRES_SCHEMA_VERSION : SQLITE_SCHEMA_VERSION;
  let before: number;
  try {
    before = await currentVersion(config);
  } catch (error) {
    if (!(error instanceof StoreOpenError)) throw error;
    out.write(`givekit migrate: cannot open the store: ${error.message}\n`);
    return 1;
  }
  if (before > known) {
    out.write(`givekit migrate: ${where}: ${new SchemaTooNewError(before, known).message}\n`);
    return 1;
  }
  try {
    const store = await openStore(config);
    await store.close();
  } catch (error) {
    if (error instanceof SchemaTooNewError) {
      out.write(`givekit migrate: ${where}: ${error.message}\n`);
    } else if (error instanceof StoreOpenError) {
      out.write(`givekit migrate: cannot open the store: ${error.message}\n`);
    } else if (error instanceof DataDirInUseError) {
      // SQLite: one proxy holds the directory, and migrated it when it started.
      if (before === known) {
        out.write(
          `${where}: schema already at version ${known} (a running proxy holds it and migrated it when it started); nothing to do.\n`,
        );
        return 0;
      }
      out.write(
        `givekit migrate: ${where} is held by a running proxy of another version (schema ${before}, this version's ${known}). ` +
          `On SQLite one proxy holds the data directory: stop it, then run givekit migrate (or start this version's proxy, which migrates as it starts).\n`,
      );
    } else {
      throw error;
    }
    return 1;
  }
  out.write(
    before === known
      ? `${where}: schema already at version ${known}; nothing to do.\n`
      : `${where}: schema migrated from version ${before} to ${known}.\n`,
  );
  return 0;
}
