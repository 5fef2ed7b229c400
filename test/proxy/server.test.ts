// proxy/server.ts as a program: a bad configuration stops it with the variable's name; a good one
// listens; a data directory another proxy holds stops it too.
import { POSTGRES_SCHEMA_VERSION } from "../../proxy/store/postgres/schema";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../proxy/store/sqlite";
import { sql, testDatabase } from "../helpers/postgres";
import { freePort } from "../helpers/postgres-global";
import { DEMO } from "../helpers/sandbox";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "givekit-server-"));
const children: ChildProcess[] = [];
// A failed test must not leave a proxy running.
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const GOOD_ENV = {
  UPSTREAM_BASE_URL: "http://127.0.0.1:9",
  UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
  UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
  GIVEKIT_DATA_DIR: dataDir,
  PORT: "0",
  HOST: "127.0.0.1",
};

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "proxy/server.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Resolves with the URL the program prints once it listens. */
function listening(program: ReturnType<typeof run>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL: ${JSON.stringify(program.output())}`)), 15_000);
    program.child.stderr.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(program.output().stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
}

describe("proxy/server.ts", () => {
  it.each([
    ["PORT", { PORT: "eighty" }],
    ["UPSTREAM_BASE_URL", { UPSTREAM_BASE_URL: "" }],
    ["ALLOWED_ORIGINS", { ALLOWED_ORIGINS: "shelter.example" }],
  ])("a bad %s → exit 1 with a message naming it", { timeout: 20_000 }, async (variable, env) => {
    const program = run({ ...GOOD_ENV, ...env });
    expect(await program.exited).toBe(1);
    expect(program.output().stderr).toContain(`bad configuration: ${variable}:`);
  });

  it("a good configuration listens, logs JSON lines and stops on SIGTERM", { timeout: 20_000 }, async () => {
    const program = run(GOOD_ENV);
    const url = await listening(program);
    const res = await fetch(`${url}/v1/health`);
    expect(await res.json()).toEqual({ status: "ok", store: "sqlite" });
    program.child.kill("SIGTERM");
    expect(await program.exited).toBe(0);
    const lines = program
      .output()
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.some((line) => line.path === "/v1/health" && line.status === 200)).toBe(true);
    expect(program.output().stdout).not.toContain(DEMO.hope.privateToken);
  });

  it(
    "a data directory another proxy holds → exit 1 naming it; free again once that proxy dies, even killed",
    { timeout: 30_000 },
    async () => {
      const shared = join(dataDir, "shared");
      const holder = run({ ...GOOD_ENV, GIVEKIT_DATA_DIR: shared });
      await listening(holder);

      const second = run({ ...GOOD_ENV, GIVEKIT_DATA_DIR: shared });
      expect(await second.exited).toBe(1);
      expect(second.output().stderr).toContain(
        `givekit proxy: ${shared} is in use by another givekit proxy.`,
      );

      holder.child.kill("SIGKILL");
      await holder.exited;
      // The operating system dropped the lock with the process: the next proxy may open the store.
      await openSqliteStore({ dataDir: shared, retentionH: 24, leaseMs: 20_000 }).close();
    },
  );
});

/** The program stopped with exit 1 and exactly one line, which holds no password. */
async function refused(program: ReturnType<typeof run>, password: string): Promise<string> {
  expect(await program.exited).toBe(1);
  const { stderr } = program.output();
  expect(stderr.trim().split("\n")).toHaveLength(1);
  expect(stderr).not.toContain(password);
  return stderr.trim();
}

describe("proxy/server.ts on PostgreSQL", () => {
  const SECRET = "k".repeat(40);
  const pgEnv = (url: string) => ({ ...GOOD_ENV, DATABASE_URL: url, GIVEKIT_SIGNING_SECRET: SECRET });

  it("a malformed DATABASE_URL → exit 1 naming it, the value not echoed", { timeout: 20_000 }, async () => {
    const line = await refused(run(pgEnv("postgres//user:hunter2hunter2@db/givekit")), "hunter2hunter2");
    expect(line).toBe(
      "givekit proxy: bad configuration: DATABASE_URL: must be a URL such as postgres://user:password@host:5432/database",
    );
  });

  it(
    "DATABASE_URL without GIVEKIT_SIGNING_SECRET → exit 1 naming the secret",
    { timeout: 20_000 },
    async () => {
      const url = await testDatabase();
      const line = await refused(run({ ...GOOD_ENV, DATABASE_URL: url }), new URL(url).password);
      expect(line).toContain("bad configuration: GIVEKIT_SIGNING_SECRET: is required with DATABASE_URL");
    },
  );

  it(
    "an unreachable database → one line naming DATABASE_URL and the cause, never the password",
    { timeout: 20_000 },
    async () => {
      const port = await freePort();
      const line = await refused(
        // No waiting for it to come up (that retry has a test of its own: probes.test.ts).
        run({
          ...pgEnv(`postgres://givekit:s3cr3t-pw-77@127.0.0.1:${port}/givekit`),
          GIVEKIT_STORE_START_WAIT_S: "0",
        }),
        "s3cr3t-pw-77",
      );
      expect(line).toBe(
        `givekit proxy: cannot open the database: DATABASE_URL: cannot connect to 127.0.0.1:${port} (connection refused)`,
      );
    },
  );

  it(
    "a wrong password → one line saying the login was refused, never the password",
    { timeout: 20_000 },
    async () => {
      const url = new URL(await testDatabase());
      url.password = "not-the-password-42";
      const line = await refused(run(pgEnv(url.toString())), "not-the-password-42");
      expect(line).toBe(
        `givekit proxy: cannot open the database: DATABASE_URL: ${url.hostname}:${url.port} refused the login (wrong user name or password)`,
      );
    },
  );

  it(
    "an empty database is migrated; one with a newer schema is refused with a message",
    { timeout: 30_000 },
    async () => {
      const url = await testDatabase();
      const first = run(pgEnv(url));
      await listening(first);
      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      expect(await sql(url, "SELECT version FROM givekit_schema")).toEqual([
        { version: POSTGRES_SCHEMA_VERSION },
      ]);

      await sql(url, "UPDATE givekit_schema SET version = 99");
      const line = await refused(run(pgEnv(url)), SECRET);
      expect(line).toBe(
        `givekit proxy: cannot use the database: the database's schema is version 99, newer than this givekit proxy knows (${POSTGRES_SCHEMA_VERSION}); run the newer proxy version, or a database of its own`,
      );
    },
  );
});
