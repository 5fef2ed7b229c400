// scripts/start.ts: the sandbox, the proxy and the demo page, wired together, printed, stopped.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO } from "../helpers/sandbox";
import { FUTURE_EXPIRY } from "../helpers/cards";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  // A failed test must not leave servers running: SIGTERM lets start.ts stop its own children.
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function start(demoDir: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      DEMO_DIR: demoDir,
      DEMO_PORT: "0",
      PORT: "0",
      SANDBOX_PORT: "0",
      SANDBOX_DB: ":memory:",
      GIVEKIT_DATA_DIR: temp("givekit-start-data-"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready:\n${output}`)), 25_000);
    child.stdout.on("data", () => {
      if (output.includes("Ctrl-C stops everything.")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const url = (label: string) => new RegExp(`${label}\\s+(http://\\S+?)/?(\\s|$)`).exec(output)?.[1];
  return { child, exited, ready, output: () => output, url };
}

describe("npm start (scripts/start.ts)", () => {
  it(
    "runs sandbox, proxy and demo page, puts the proxy's URL in the page, and stops on SIGINT",
    { timeout: 40_000 },
    async () => {
      const demoDir = temp("givekit-demo-");
      writeFileSync(join(demoDir, "index.html"), '<script src="__GIVEKIT_PROXY__/widget.js"></script>');
      const run = start(demoDir);
      await run.ready;
      const demo = run.url("demo page")!;
      const proxy = run.url("proxy")!;
      const upstream = run.url("upstream")!;
      expect([demo, proxy, upstream].every(Boolean)).toBe(true);

      expect(await (await fetch(`${demo}/`)).text()).toBe(`<script src="${proxy}/widget.js"></script>`);
      expect(await (await fetch(`${proxy}/v1/health`)).json()).toEqual({ status: "ok", store: "sqlite" });
      // The proxy reaches the sandbox with the demo tokens, and lets the demo page call it.
      // As the card frame sends it: the honeypot empty, its form session older than a bot's.
      const session = await fetch(`${proxy}/v1/form-sessions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect(session.status).toBe(201);
      const { form_session } = (await session.json()) as { form_session: string };
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const token = await fetch(`${proxy}/v1/payment-tokens`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: demo },
        body: JSON.stringify({
          card_number: "4242424242424242",
          cvv: "123",
          expiration_date: FUTURE_EXPIRY,
          website: "",
          form_session,
        }),
      });
      expect(token.status).toBe(201);
      expect(token.headers.get("access-control-allow-origin")).toBe(demo);

      expect(run.output()).toContain("4242 4242 4242 4242");
      expect(run.output()).toContain("sandbox/fixtures/demo.json");
      expect(run.output()).not.toContain(DEMO.hope.privateToken);
      expect(run.output()).not.toContain(DEMO.hope.publicToken);

      run.child.kill("SIGINT");
      expect(await run.exited).toBe(0);
    },
  );

  it("without a build, says so and serves a page that explains it", { timeout: 40_000 }, async () => {
    const run = start(join(tmpdir(), "givekit-no-demo-here"));
    await run.ready;
    expect(run.output()).toContain("npm run build");
    const page = await fetch(`${run.url("demo page")}/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("npm run build");
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
  });
});
