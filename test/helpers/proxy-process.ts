/**
 * Starts `proxy/server.ts` as a program of its own (node + tsx), as a host would, so tests
 * can run several at once on one database and kill one with SIGKILL. Every program a test
 * file started is killed after it, even when a test fails.
 *
 * @example
 * const proxy = await spawnProxy({ UPSTREAM_BASE_URL: sandbox.url, DATABASE_URL: url, GIVEKIT_SIGNING_SECRET: secret });
 * await fetch(`${proxy.url}/v1/health`);
 * await proxy.stop();
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { DEMO } from "./sandbox";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
});

export interface ProxyProgram {
  child: ChildProcess;
  /** Resolves with the exit code once the program ends. */
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
}

export interface ProxyProcess extends ProxyProgram {
  url: string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no clean-up of any kind, as a crash or a host's hard stop. */
  kill(): Promise<void>;
}

/** How the proxy is started: `npm run proxy`'s entry, or `givekit serve` through the package's bin, as the GUIDE's unit does. */
export type ProxyEntry = "server" | "bin";
const ENTRY_ARGS: Record<ProxyEntry, string[]> = {
  server: ["--import", "tsx", "proxy/server.ts"],
  bin: ["bin/givekit.js", "serve"],
};

/** Runs the program with the demo tokens, 127.0.0.1 on a free port, and `env` on top. */
export function runProxy(env: Record<string, string>, entry: ProxyEntry = "server"): ProxyProgram {
  const child = spawn(process.execPath, ENTRY_ARGS[entry], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      // Tests post cards at machine speed; the form-time filter has tests of its own.
      GIVEKIT_MIN_FORM_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Starts the program and resolves once it listens (rejects if it stops first). */
export async function spawnProxy(
  env: Record<string, string>,
  entry: ProxyEntry = "server",
): Promise<ProxyProcess> {
  const program = runProxy(env, entry);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL: ${JSON.stringify(program.output())}`)), 30_000);
    program.child.stderr!.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(program.output().stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void program.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${program.output().stderr}`));
    });
  });
  return {
    ...program,
    url,
    async stop() {
      if (program.child.exitCode === null) program.child.kill("SIGTERM");
      await program.exited;
    },
    async kill() {
      if (program.child.exitCode === null) program.child.kill("SIGKILL");
      await program.exited;
    },
  };
}
