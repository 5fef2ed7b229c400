// proxy/server.ts as a program: a bad configuration stops it with the variable's name; a good one
// listens; a data directory another proxy holds stops it too.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../proxy/store/sqlite";
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
      // The operating system dropped the lock with the process: the next proxy may open the journal.
      await openSqliteStore({ dataDir: shared, retentionH: 24, leaseMs: 20_000 }).close();
    },
  );
});
