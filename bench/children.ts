/**
 * The bench's child processes. Every process a bench part starts goes through `spawnChild` (or
 * `startServer`), which runs it as the leader of a process group of its own, so that stopping it
 * stops whatever it started too. `stopChildren` stops them all (SIGTERM to each group, then
 * SIGKILL to what is left after the grace), and `cleanUpOnEveryExit` runs the bench's clean-up on
 * every way out: the end of the run, a thrown error, an unhandled rejection, SIGINT and SIGTERM;
 * at the process's very exit any group still there is killed at once.
 *
 * @example
 * cleanUpOnEveryExit(async () => { await stopChildren(); });
 * const stub = await startServer([join(buildDir, "upstream-stub.js")], {});
 * await stopChild(stub.child);
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/** How long a server may take to print "listening on <url>". */
const START_TIMEOUT_MS = 30_000;
/** How long the children get to stop after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 5_000;

const running = new Set<ChildProcess>();

/** Children still running (their group leader has not exited). */
export function runningChildren(): ChildProcess[] {
  return [...running];
}

/** Sends a signal to the child's whole process group; false if nothing was there. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Spawns a program as the leader of a new process group, tracked until it exits. */
export function spawnChild(file: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(file, args, { ...options, detached: true });
  running.add(child);
  child.once("exit", () => running.delete(child));
  // Not spawned at all (no such program): nothing to stop; the caller sees the error.
  child.once("error", () => running.delete(child));
  return child;
}

/**
 * Stops a child and whatever it started: SIGTERM to its group, SIGKILL after the grace, resolved
 * once its leader has exited.
 */
export async function stopChild(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  const done = exited(child);
  if (signalGroup(child, "SIGTERM")) await Promise.race([done, sleep(graceMs)]);
  // Whatever is left of the group (a straggler, or a grandchild its leader left behind).
  signalGroup(child, "SIGKILL");
  await Promise.race([done, sleep(1_000)]);
}

/** Stops every child still running, all at once. */
export async function stopChildren(graceMs = STOP_GRACE_MS): Promise<void> {
  await Promise.all(runningChildren().map((child) => stopChild(child, graceMs)));
}

/** SIGKILL to every group at once, for where nothing can be awaited (the process's exit). */
export function killChildrenNow(): void {
  for (const child of running) signalGroup(child, "SIGKILL");
}

/**
 * Starts `node <args>` with `env` (and PATH) and resolves once it prints "listening on <url>";
 * rejects (and stops it) if it exits or says nothing of the kind within 30 s. Its stdout lines
 * go to `onLine`; its output is read to the end either way, so a chatty child never blocks.
 */
export function startServer(
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; onLine?: (line: string) => void } = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnChild(process.execPath, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const name = args.join(" ");
  return new Promise((resolve, reject) => {
    let seen = "";
    let listening = false;
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stopChild(child).then(() => reject(error));
    };
    const timer = setTimeout(() => fail(new Error(`${name} did not start: ${seen}`)), START_TIMEOUT_MS);
    const look = (chunk: Buffer) => {
      if (listening) return;
      if (seen.length < 10_000) seen += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        listening = true;
        clearTimeout(timer);
        const fault = injectedFault();
        if (fault) reject(fault);
        else resolve({ child, url: match[1]! });
      }
    };
    child.stdout!.on("data", look);
    child.stderr!.on("data", look);
    if (options.onLine) {
      const onLine = options.onLine;
      let rest = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        const lines = (rest + chunk.toString("utf8")).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) onLine(line);
      });
    }
    child.once("error", fail);
    child.once("exit", (code, signal) => {
      if (!listening) fail(new Error(`${name} exited (${code ?? signal}) before listening: ${seen}`));
    });
  });
}

/**
 * Runs `cleanUp` (once) on every way out and sets the exit code: 130 on SIGINT, 143 on SIGTERM,
 * 1 on an uncaught exception or an unhandled rejection (its message on stderr). A second
 * signal while cleaning up kills the children at once and exits. Whatever way the process
 * exits, any child group still there is killed (SIGKILL) at its exit.
 */
export function cleanUpOnEveryExit(cleanUp: () => Promise<void>): {
  /** Runs the clean-up (once, however many ways call it). */
  cleanUp(): Promise<void>;
  /** Whether a signal or an uncaught failure is ending the process (what fails after is its echo). */
  stopping(): boolean;
} {
  let cleaning: Promise<void> | undefined;
  const once = () =>
    (cleaning ??= cleanUp().catch((error: unknown) => {
      process.stderr.write(`bench: clean-up failed: ${describe(error)}\n`);
    }));
  let leaving = false;
  const leave = (code: number, message: string) => {
    process.stderr.write(message);
    if (leaving) {
      killChildrenNow();
      process.exit(code);
    }
    leaving = true;
    // The clean-up is bounded; past this, the exit handler's SIGKILL does the rest.
    setTimeout(() => process.exit(code), STOP_GRACE_MS + 10_000).unref();
    void once().finally(() => process.exit(code));
  };
  process.on("SIGINT", () => leave(130, "\nbench stopped (SIGINT): stopping its servers\n"));
  process.on("SIGTERM", () => leave(143, "\nbench stopped (SIGTERM): stopping its servers\n"));
  process.on("uncaughtException", (error) => leave(1, `bench failed: ${describe(error)}\n`));
  process.on("unhandledRejection", (reason) =>
    leave(1, `bench failed (unhandled rejection): ${describe(reason)}\n`),
  );
  process.on("exit", killChildrenNow);
  return { cleanUp: once, stopping: () => leaving };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * For the bench's own test (test/bench/children.test.ts) only: with BENCH_FAULT set, the
 * BENCH_FAULT_AFTER-th server to listen (default 2) makes the bench fail midway as it says:
 * `throw` (its start rejects, as an error thrown in a part), `reject` (an unhandled rejection
 * beside it) or `exception` (an uncaught exception). Undefined: it starts as usual.
 */
let listened = 0;
function injectedFault(): Error | undefined {
  const fault = process.env.BENCH_FAULT;
  if (!fault || ++listened !== Number(process.env.BENCH_FAULT_AFTER || 2)) return undefined;
  const error = new Error(`BENCH_FAULT=${fault} after ${listened} servers started`);
  if (fault === "throw") return error;
  if (fault === "reject") void Promise.reject(error);
  else if (fault === "exception")
    setImmediate(() => {
      throw error;
    });
  return undefined;
}
