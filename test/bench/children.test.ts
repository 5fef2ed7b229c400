/**
 * `npm run bench` leaves no process behind, whichever way it ends: the bench itself is run
 * (its `proxy` part, with a long measuring time so that it is midway), its process tree is
 * watched in /proc, and it is ended by SIGTERM, by SIGINT, by an error thrown in a part, by an
 * unhandled rejection and by an uncaught exception (the last three through BENCH_FAULT, a hook
 * of bench/children.ts for this test). Then no process it started, nor any process in their
 * process groups, is left.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  /** Start time in clock ticks since boot: with the pid, names one process even if the pid is reused. */
  start: string;
}

/** Every process on the machine, from /proc/<pid>/stat. */
function processes(): Proc[] {
  const found: Proc[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields start after it.
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      found.push({
        pid: Number(entry),
        state: fields[0]!,
        ppid: Number(fields[1]),
        pgid: Number(fields[2]),
        start: fields[19]!,
      });
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** The processes below `root` (children, theirs, …), as they are now. */
function descendants(root: number): Proc[] {
  const all = processes();
  const below: Proc[] = [];
  let parents = new Set([root]);
  while (parents.size) {
    const next = all.filter((proc) => parents.has(proc.ppid));
    below.push(...next);
    parents = new Set(next.map((proc) => proc.pid));
  }
  return below;
}

/** The test runner's process group, which the bench (not its children) shares. */
const OWN_GROUP = processes().find((proc) => proc.pid === process.pid)!.pgid;

/** Of the processes seen, those still running (zombies aside), and anything in their process groups. */
function leftOf(seen: Map<string, Proc>): Proc[] {
  const groups = new Set([...seen.values()].map((proc) => proc.pgid).filter((group) => group !== OWN_GROUP));
  return processes().filter(
    (proc) => proc.state !== "Z" && (seen.has(`${proc.pid}@${proc.start}`) || groups.has(proc.pgid)),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the bench's `proxy` part with `env` on top; `whenMidway` is called once it has at least
 * `midway` processes below it. Resolves when it has exited, with what it said, its exit code and
 * every process seen below it meanwhile.
 */
async function runBench(
  env: Record<string, string>,
  midway: number,
  whenMidway: (pid: number) => void = () => {},
) {
  const bench = spawn(process.execPath, ["--import", "tsx", "bench/proxy-bench.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      BENCH_ONLY: "proxy",
      // Long enough that every end below comes while it measures, never after it.
      BENCH_DURATION_S: "60",
      BENCH_WARMUP_S: "1",
      BENCH_ROUNDS: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  bench.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  bench.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => bench.once("exit", (code) => resolve(code)));
  const seen = new Map<string, Proc>();
  let called = false;
  const deadline = performance.now() + 45_000;
  while (bench.exitCode === null && bench.signalCode === null) {
    const below = descendants(bench.pid!);
    for (const proc of below) seen.set(`${proc.pid}@${proc.start}`, proc);
    if (!called && below.length >= midway) {
      called = true;
      whenMidway(bench.pid!);
    }
    if (performance.now() > deadline) {
      // It did not end: this test fails, and leaves nothing behind itself.
      for (const proc of [...below, { pid: bench.pid!, pgid: OWN_GROUP }]) {
        kill(proc.pid);
        if (proc.pgid !== OWN_GROUP) kill(-proc.pgid);
      }
      return { code: "still running after 45 s", output, seen, midwayReached: called };
    }
    await sleep(50);
  }
  const code = await exited;
  return { code, output, seen, midwayReached: called };
}

/** SIGKILL to a process (or a group: a negative id), if it is still there. */
function kill(id: number): void {
  try {
    process.kill(id, "SIGKILL");
  } catch {
    // Gone already.
  }
}

/** Waits (a little: a child's exit is reported after its group is signalled) for nothing to be left. */
async function expectNothingLeft(seen: Map<string, Proc>): Promise<void> {
  let left = leftOf(seen);
  for (let tries = 0; left.length && tries < 20; tries++) {
    await sleep(100);
    left = leftOf(seen);
  }
  expect(left.map((proc) => readCommand(proc.pid))).toEqual([]);
}

function readCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return `${pid} (gone)`;
  }
}

describe.concurrent("npm run bench leaves no process behind", { timeout: 90_000 }, () => {
  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`stopped by ${signal} midway (the stub, the forwarder, a proxy and the sandbox running)`, async () => {
      const run = await runBench({}, 4, (pid) => process.kill(pid, signal));
      expect(run.midwayReached).toBe(true);
      expect(run.output).toContain(`bench stopped (${signal})`);
      expect(run.code).toBe(code);
      expect(run.seen.size).toBeGreaterThanOrEqual(4);
      await expectNothingLeft(run.seen);
    });
  }

  for (const [fault, said] of [
    ["throw", "bench failed: BENCH_FAULT=throw"],
    ["reject", "bench failed (unhandled rejection): Error: BENCH_FAULT=reject"],
    ["exception", "bench failed: Error: BENCH_FAULT=exception"],
  ] as const) {
    it(`failing midway (BENCH_FAULT=${fault}), with three servers running`, async () => {
      const run = await runBench({ BENCH_FAULT: fault, BENCH_FAULT_AFTER: "3" }, Infinity);
      expect(run.output).toContain(said);
      expect(run.code).toBe(1);
      expect(run.seen.size).toBeGreaterThanOrEqual(3);
      await expectNothingLeft(run.seen);
    });
  }
});
