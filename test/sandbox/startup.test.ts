// Starting the sandbox: fixture validation, configuration, the program itself, and persistence.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../sandbox/config";
import { FixtureError, loadFixtureFile, parseFixture } from "../../sandbox/fixture";
import { startSandboxServer } from "../../sandbox/listen";
import { DEMO, DEMO_FIXTURE_PATH } from "../helpers/sandbox";
import { auth, call, donate, donation, login } from "./support";
import { FUTURE_EXPIRY } from "../helpers/cards";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "givekit-sandbox-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const demo = () => JSON.parse(readFileSync(DEMO_FIXTURE_PATH, "utf8"));

function writeFixture(name: string, value: unknown): string {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run sandbox`'s command (node --import tsx sandbox/server.ts) with the given environment
 * until it exits (or is stopped). Not the tsx command: it stands between the signal and the
 * server, and SIGKILLs a server that has not said within 30 ms that the signal reached it.
 */
function runServer(env: Record<string, string>): {
  child: ChildProcess;
  exited: Promise<Exit>;
  output: () => string;
} {
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, exited, output: () => stdout };
}

describe("a malformed fixture stops the sandbox, naming the field", () => {
  const spawned: [string, (fixture: ReturnType<typeof demo>) => void, string][] = [
    [
      "a bad shortcode",
      (f) => (f.accounts[0].keywords[1].shortcode = "7-17"),
      "accounts[0].keywords[1].shortcode",
    ],
    [
      "a fundraiser whose team does not exist",
      (f) => (f.accounts[1].fundraisers[0].team_id = "99"),
      "accounts[1].fundraisers[0].team_id",
    ],
  ];
  for (const [name, breakIt, path] of spawned) {
    it(`${name}: exit code 1 and the message names ${path}`, async () => {
      const fixture = demo();
      breakIt(fixture);
      const { code, stderr } = await runServer({
        SANDBOX_FIXTURE: writeFixture("bad.json", fixture),
        SANDBOX_PORT: "0",
        SANDBOX_DB: ":memory:",
      }).exited;
      expect(code).toBe(1);
      expect(stderr).toContain(path);
    }, 30_000);
  }

  const cases: [string, (fixture: ReturnType<typeof demo>) => void, string][] = [
    ["an unknown field", (f) => (f.accounts[0].keywords[0].colour = "red"), "accounts[0].keywords[0].colour"],
    [
      "a missing field",
      (f) => delete f.accounts[0].keywords[2].peer_fundraising,
      "accounts[0].keywords[2].peer_fundraising",
    ],
    [
      "a reserved keyword",
      (f) => (f.accounts[1].keywords[0].keyword = "STOP"),
      "accounts[1].keywords[0].keyword",
    ],
    [
      "a fundraiser id used twice",
      (f) => (f.accounts[1].fundraisers[0].id = "101"),
      "accounts[1].fundraisers[0].id",
    ],
    [
      "a captain not in the team",
      (f) => (f.accounts[0].teams[0].captain_id = "103"),
      "accounts[0].teams[0].captain_id",
    ],
    ["a reserved id", (f) => (f.accounts[0].fundraisers[2].id = "npo-x"), "accounts[0].fundraisers[2].id"],
    [
      "a shared token",
      (f) => (f.accounts[1].public_token = f.accounts[0].private_token),
      "accounts[1].public_token",
    ],
    [
      "two default forms",
      (f) => (f.accounts[0].keywords[0].forms[1].default = true),
      "accounts[0].keywords[0].forms",
    ],
    [
      "event_id without event_type",
      (f) => delete f.accounts[0].keywords[0].event_type,
      "accounts[0].keywords[0].event_type",
    ],
    ["no accounts", (f) => (f.accounts = []), "accounts"],
  ];
  for (const [name, breakIt, path] of cases) {
    it(`${name} → FixtureError naming ${path}`, () => {
      const fixture = demo();
      breakIt(fixture);
      expect(() => parseFixture(fixture, "test.json")).toThrow(FixtureError);
      expect(() => parseFixture(fixture, "test.json")).toThrow(`test.json: ${path}:`);
    });
  }

  it("a file that is not JSON → FixtureError naming the file", () => {
    const path = join(work, "broken.json");
    writeFileSync(path, "{ not json");
    expect(() => loadFixtureFile(path)).toThrow(`${path}: not valid JSON`);
  });

  it("the demo fixture is valid", () => {
    expect(loadFixtureFile(DEMO_FIXTURE_PATH).accounts.map((account) => account.name)).toEqual([
      "Hope Shelter",
      "River Trust",
    ]);
  });
});

describe("configuration", () => {
  it("defaults: port 4010, 127.0.0.1, the demo fixture, data/sandbox.db, TTL 3600 s, no latency", () => {
    expect(loadConfig({})).toEqual({
      port: 4010,
      host: "127.0.0.1",
      fixturePath: "sandbox/fixtures/demo.json",
      dbPath: "data/sandbox.db",
      sessionTtlS: 3600,
      latencyMs: 0,
    });
  });

  for (const [name, value] of [
    ["SANDBOX_PORT", "abc"],
    ["SANDBOX_PORT", "70000"],
    ["SANDBOX_SESSION_TTL_S", "0"],
    ["SANDBOX_LATENCY_MS", "-5"],
    ["SANDBOX_HOST", "local host"],
  ] as const) {
    it(`${name}=${value} is refused with a message naming ${name}`, () => {
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    });
  }

  it("a bad variable stops the program: exit code 1, naming it", async () => {
    const { code, stderr } = await runServer({ SANDBOX_PORT: "not-a-port", SANDBOX_DB: ":memory:" }).exited;
    expect(code).toBe(1);
    expect(stderr).toContain("SANDBOX_PORT");
  }, 30_000);
});

describe("npm run sandbox (node --import tsx sandbox/server.ts)", () => {
  it("starts with the demo fixture, prints its URL, serves the API, and stops on SIGTERM", async () => {
    const run = runServer({ SANDBOX_PORT: "0", SANDBOX_DB: ":memory:", SANDBOX_SESSION_TTL_S: "60" });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output());
        if (match) {
          clearInterval(timer);
          resolve(match[1]!);
        }
      }, 50);
      void run.exited.then((exit) => {
        clearInterval(timer);
        reject(new Error(`exited early: ${exit.stderr}`));
      });
    });
    expect(run.output()).not.toContain(DEMO.hope.privateToken);
    const answer = await call(url, "/api/v2/users/login_with_auth_token", {
      authorization: auth(DEMO.hope.privateToken, "private"),
    });
    expect(answer.json.user.expires_in).toBe(60);
    run.child.kill("SIGTERM");
    expect((await run.exited).code).toBe(0);
  }, 30_000);
});

/** The amounts of Hope Shelter's collected transactions, read through the reports API. */
async function reportRows(url: string): Promise<string[]> {
  const created = await call(url, "/api/v2/reports/transactions.json", {
    method: "GET",
    authorization: auth(DEMO.hope.privateToken),
    body: { status: "collected" },
  });
  const results = await call(url, "/api/v2/reports/results.json", {
    method: "GET",
    authorization: auth(DEMO.hope.privateToken),
    body: { id: created.json.report.id },
  });
  return results.json.report.transactions.map((row: { amount: string }) => row.amount);
}

describe("state in a database file", () => {
  it("transactions survive a restart with the same fixture; a different fixture starts afresh", async () => {
    const dbPath = join(work, "state", "sandbox.db");
    const fixture = loadFixtureFile(DEMO_FIXTURE_PATH);
    const options = { dbPath, host: "127.0.0.1", port: 0, sessionTtlS: 3600, latencyMs: 0 };
    const first = await startSandboxServer({ ...options, fixture });
    const session = await login(first);
    expect((await donate(first, session, donation({ amount: "8.00" }))).status).toBe(200);
    const token = await call(first.url, "/api/v2/donations/create_payment_token", {
      authorization: auth(session, "session"),
      body: { card_number: "5555555555554444", cvv: "123", expiration_date: FUTURE_EXPIRY },
    });
    await first.close();

    // No card number and no usable token is written to the database.
    const bytes = readFileSync(dbPath).toString("latin1");
    expect(bytes).toContain("4242");
    for (const secret of ["4242424242424242", "5555555555554444", session, token.json.credit_card_token]) {
      expect(bytes).not.toContain(secret);
    }

    const second = await startSandboxServer({ ...options, fixture });
    expect(await reportRows(second.url)).toEqual(["8.00"]);
    await second.close();

    const changed = demo();
    changed.accounts[0].lists.push("Board");
    const third = await startSandboxServer({ ...options, fixture: parseFixture(changed) });
    expect(await reportRows(third.url)).toEqual([]);
    await third.close();
  });
});
