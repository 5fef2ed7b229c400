// `givekit migrate` on both stores: an empty store is brought to this version, a current one is
// left alone, a newer one is refused with both versions named, and a SQLite directory a running
// proxy holds is refused.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../../sqlite/open";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { givekit } from "../../helpers/cli";
import { POSTGRES_SCHEMA_VERSION } from "../../../proxy/store/postgres/schema";
import { DB_FILE } from "../../../proxy/store/sqlite/data-dir";
import { SQLITE_SCHEMA_VERSION } from "../../../proxy/store/sqlite/schema";
import { sql, testDatabase } from "../../helpers/postgres";
import { startProxy } from "../../helpers/proxy";
import { DEMO } from "../../helpers/sandbox";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "givekit-migrate-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Sets a store's schema version beside a proxy running in this process: a write the proxy's
 * open batch holds is tried again after the event loop has let that batch commit (a synchronous
 * wait for the lock would hold the very loop that commits it).
 */
async function setSchemaVersion(path: string, version: number): Promise<void> {
  const db = openSqlite(path, { timeout: 0 });
  try {
    for (let tries = 0; ; tries++) {
      try {
        db.pragma(`user_version = ${version}`);
        return;
      } catch (error) {
        if (tries === 100 || (error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  } finally {
    db.close();
  }
}

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    // migrate never calls the upstream; the configuration needs one all the same.
    UPSTREAM_BASE_URL: "http://127.0.0.1:9",
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    ...extra,
  };
}

const migrate = (environment: NodeJS.ProcessEnv) => givekit(["migrate"], environment);

describe("givekit migrate on SQLite", () => {
  it("migrates an empty data directory, then has nothing to do; exit 0 both times", async () => {
    const dataDir = join(dir, "fresh");
    const first = await migrate(env({ GIVEKIT_DATA_DIR: dataDir }));
    expect(first).toEqual({
      code: 0,
      out: `SQLite database in ${dataDir}: schema migrated from version 0 to ${SQLITE_SCHEMA_VERSION}.\n`,
      err: "",
    });
    const again = await migrate(env({ GIVEKIT_DATA_DIR: dataDir }));
    expect(again.code).toBe(0);
    expect(again.out).toBe(
      `SQLite database in ${dataDir}: schema already at version ${SQLITE_SCHEMA_VERSION}; nothing to do.\n`,
    );
  });

  it("a store newer than this version: refused, both versions named, exit 1, left as it was", async () => {
    const dataDir = join(dir, "newer");
    await migrate(env({ GIVEKIT_DATA_DIR: dataDir }));
    const db = openSqlite(join(dataDir, DB_FILE));
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    db.close();
    const { code, out } = await migrate(env({ GIVEKIT_DATA_DIR: dataDir }));
    expect(code).toBe(1);
    expect(out).toBe(
      `givekit migrate: SQLite database in ${dataDir}: the database's schema is version ${SQLITE_SCHEMA_VERSION + 1}, newer than this givekit proxy knows (${SQLITE_SCHEMA_VERSION}); run the newer proxy version, or a database of its own\n`,
    );
    const after = openSqlite(join(dataDir, DB_FILE), { readonly: true });
    expect(after.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION + 1);
    after.close();
  });

  it("a data directory a running proxy holds: nothing to do at this version (exit 0); at another, stop it first (exit 1)", async () => {
    const proxy = await startProxy({ upstreamUrl: "http://127.0.0.1:9" });
    try {
      const current = await migrate(env({ GIVEKIT_DATA_DIR: proxy.dataDir }));
      expect(current.code).toBe(0);
      expect(current.out).toMatch(/schema already at version \d+ \(a running proxy holds it/);
      // A proxy of an older release still running on its older schema.
      await setSchemaVersion(join(proxy.dataDir, DB_FILE), SQLITE_SCHEMA_VERSION - 1);
      const older = await migrate(env({ GIVEKIT_DATA_DIR: proxy.dataDir }));
      expect(older.code).toBe(1);
      expect(older.out).toMatch(
        /^givekit migrate: .* is held by a running proxy of another version .*: stop it, then run givekit migrate/,
      );
    } finally {
      await proxy.close();
    }
  });

  it("a bad configuration names the variable, exit 1", async () => {
    const { code, out } = await migrate(env({ GIVEKIT_DATA_DIR: join(dir, "x"), PORT: "eighty" }));
    expect(code).toBe(1);
    expect(out).toMatch(/^givekit migrate: bad configuration: PORT: /);
  });
});

describe("givekit migrate on PostgreSQL", () => {
  const secret = randomBytes(32).toString("hex");

  it("migrates an empty database, then has nothing to do; a newer schema is refused naming both versions", async () => {
    const url = await testDatabase();
    const pgEnv = env({
      DATABASE_URL: url,
      GIVEKIT_SIGNING_SECRET: secret,
      GIVEKIT_DATA_DIR: join(dir, "pg"),
    });
    const first = await migrate(pgEnv);
    expect(first.code).toBe(0);
    expect(first.out).toBe(
      `PostgreSQL (DATABASE_URL): schema migrated from version 0 to ${POSTGRES_SCHEMA_VERSION}.\n`,
    );
    expect(await sql(url, "SELECT version FROM givekit_schema")).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
    expect((await migrate(pgEnv)).out).toBe(
      `PostgreSQL (DATABASE_URL): schema already at version ${POSTGRES_SCHEMA_VERSION}; nothing to do.\n`,
    );

    await sql(url, "UPDATE givekit_schema SET version = 99");
    const refused = await migrate(pgEnv);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe(
      `givekit migrate: PostgreSQL (DATABASE_URL): the database's schema is version 99, newer than this givekit proxy knows (${POSTGRES_SCHEMA_VERSION}); run the newer proxy version, or a database of its own\n`,
    );
    expect(refused.out).not.toContain(new URL(url).password);
    expect(await sql(url, "SELECT version FROM givekit_schema")).toEqual([{ version: 99 }]);
  });
});
