/**
 * Starts the sandbox as a program of its own (`npm run sandbox`'s entry, in-memory, 127.0.0.1 on a
 * free port), for tests whose crowds would otherwise share one process with their sandboxes: the
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
import { sandboxAt, type SandboxHandle } from "./sandbox";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// Whatever runs it (a test file, the bench) never leaves a sandbox behind, even when it fails.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
});

export async function startSandboxProgram(): Promise<SandboxHandle> {
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      SANDBOX_HOST: "127.0.0.1",
      SANDBOX_PORT: "0",
      SANDBOX_DB: ":memory:",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000)));
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${output}`)), 30_000);
    child.stdout!.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the sandbox stopped: ${output}`));
    });
  });
  return sandboxAt(url, async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    running.delete(child);
  });
}
