/**
 * Starts the sandbox (and the Turnstile stand-in) as a program of its own (`npm run sandbox`'s
 * entry, in-memory, 127.0.0.1 on a free port), for tests whose crowds would otherwise share one process with their sandboxes: the
 * sandbox then answers on its own core's time, not between the clients' requests. Every program
 * still running when the process that started it exits is killed.
 *
 * @example
 * const sandbox = await startSandboxProgram();
 * const charged = await sandbox.transactions({ status: "collected" });
 * await sandbox.close();
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { fakeTurnstileEnv } from "../../e2e/turnstile-fake";
import { sandboxAt, type SandboxHandle } from "./sandbox";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// Whatever runs it (a test file, the bench) never leaves a sandbox behind, even when it fails.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
});

export async function startSandboxProgram(): Promise<SandboxHandle> {
  const program = await startListeningProgram("sandbox/server.ts", "the sandbox", {
    SANDBOX_HOST: "127.0.0.1",
    SANDBOX_PORT: "0",
    SANDBOX_DB: ":memory:",
  });
  return sandboxAt(program.url, program.close);
}

/**
 * The Turnstile stand-in (e2e/turnstile-fake.ts) as a program of its own, as Cloudflare's
 * verifier is: between a crowd's requests in the test's own process it answered after the
 * proxy's TURNSTILE_TIMEOUT_MS, and people who had passed the check were refused.
 *
 * @example
 * const turnstile = await startFakeTurnstileProgram();
 * startCrowdStack({ challenge: turnstile.proxyEnv });
 */
export async function startFakeTurnstileProgram(): Promise<{
  proxyEnv: Record<string, string>;
  close(): Promise<void>;
}> {
  const program = await startListeningProgram("e2e/turnstile-fake.ts", "the Turnstile stand-in", {});
  return { proxyEnv: fakeTurnstileEnv(program.url), close: program.close };
}

/** Runs `entry` under tsx until it prints "listening on <url>"; its url, and how to stop it. */
async function startListeningProgram(
  entry: string,
  name: string,
  env: Record<string, string>,
): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000)));
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${output}`)), 30_000);
    child.stdout!.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} stopped: ${output}`));
    });
  });
  return {
    url,
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      running.delete(child);
    },
  };
}
