/**
 * A loopback port where a TCP connect never completes: a listener in a child process whose
 * accept queue is full and whose event loop is blocked, so the kernel drops every further SYN.
 * That is how an overloaded or half-dead upstream looks to a client, and the only way to make
 * a connect time out on loopback (connecting to an unroutable address fails at once here).
 * The child blocks for at most LIFETIME_MS and then exits by itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";

const LIFETIME_MS = 30_000;
/**
 * A connect that has not completed after this long is taken as stalled. Generous, so a busy
 * test process is not mistaken for a full queue: a dropped SYN is not retried before 1 s.
 */
const PENDING_AFTER_MS = 400;
const MAX_FILLERS = 16;

const CHILD = `
const server = require("node:net").createServer();
server.listen({ port: Number(process.argv[1]), host: "127.0.0.1", backlog: 1 }, () => {
  process.stdout.write(server.address().port + "\\n");
  // Never accept: the queue fills and later connects hang in SYN_SENT.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[2]));
  process.exit(0);
});`;

export interface StalledListener {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Resolves once a fresh connect to the port no longer completes. `port` 0: any free port. */
export async function startStalledListener(port = 0): Promise<StalledListener> {
  const child = spawn(process.execPath, ["-e", CHILD, String(port), String(LIFETIME_MS)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const listening = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString("utf8").trim())));
    child.once("exit", (code) => reject(new Error(`stalled listener exited (${code})`)));
  });

  const sockets: Socket[] = [];
  // Fill the accept queue until a connect stays pending (the kernel's queue size may vary).
  for (let i = 0; ; i++) {
    if (i === MAX_FILLERS) {
      await stop(child, sockets);
      throw new Error(`connects to port ${listening} kept completing`);
    }
    const socket = connect(listening, "127.0.0.1");
    socket.on("error", () => undefined);
    sockets.push(socket);
    const completed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), PENDING_AFTER_MS);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!completed) break;
  }
  return {
    url: `http://127.0.0.1:${listening}`,
    port: listening,
    close: () => stop(child, sockets),
  };
}

async function stop(child: ChildProcess, sockets: Socket[]): Promise<void> {
  for (const socket of sockets) socket.destroy();
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}
