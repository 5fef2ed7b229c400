/**
 * Progress reads' answers are read on a thread of their own (progress-worker.ts): the main thread
 * hands each answer's bytes on as they arrive and gets back only the sums (progress-tally.ts),
 * so no donation or probe waits behind a million rows being parsed, checked and hashed. One
 * thread per process, started by the first read and stopped after IDLE_MS with none.
 */
import type { Worker } from "node:worker_threads";
import type { RowsShape, RowsSink } from "../upstream/http";
import { startThread } from "../worker-thread";
import type { ReportSums, TallySpec } from "./progress-tally";

/** What the main thread tells the reading thread, per read (`id`). */
export type ToReader =
  | { type: "open"; id: number; spec: TallySpec; path: readonly string[]; maxRowBytes: number }
  | { type: "bytes"; id: number; bytes: Uint8Array }
  | { type: "end"; id: number }
  | { type: "abort"; id: number };

/** What the reading thread answers: bytes read, the sums at the end, or why the bytes were refused. */
export type FromReader =
  | { type: "read"; id: number; bytes: number }
  | { type: "done"; id: number; envelope: unknown; sums: ReportSums }
  | { type: "failed"; id: number; reason: string };

/** Bytes handed on and not yet read: past this, the answer is paused until the thread catches up. */
export const READ_AHEAD_BYTES = 4 * 1024 * 1024;
/** The thread stops after this long with no read, its memory given back. */
export const IDLE_MS = 30_000;

/** The answer's rows as sums, once `end()` has resolved. */
export interface ReportSink extends RowsSink {
  readonly sums: ReportSums | undefined;
}

interface Read {
  unread: number;
  failure?: string;
  room?: () => void;
  settle?: { resolve(envelope: unknown): void; reject(error: Error): void };
  sums?: ReportSums;
}

let thread: Worker | undefined;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
let lastId = 0;
const reads = new Map<number, Read>();

function failRead(read: Read, reason: string): void {
  read.failure ??= reason;
  read.room?.();
  read.settle?.reject(new Error(read.failure));
}

/** The thread is gone (or going): every read on it fails, and the next read starts another. */
function failEveryRead(reason: string): void {
  thread = undefined;
  for (const read of reads.values()) failRead(read, reason);
  reads.clear();
}

/** A read under way keeps the process alive, as its socket would; an idle thread never does. */
function threadNow(): Worker {
  clearTimeout(idleTimer);
  if (thread) {
    thread.ref();
    return thread;
  }
  const worker = startThread(import.meta.url, "progress-worker");
  const gone = (reason: string) => {
    if (thread === worker) failEveryRead(reason);
  };
  worker.on("message", (message: FromReader) => {
    const read = reads.get(message.id);
    if (!read) return;
    if (message.type === "read") {
      read.unread -= message.bytes;
      if (read.unread < READ_AHEAD_BYTES / 2) read.room?.();
      return;
    }
    reads.delete(message.id);
    if (reads.size === 0) idleSoon();
    if (message.type === "failed") failRead(read, message.reason);
    else {
      read.sums = message.sums;
      read.settle?.resolve(message.envelope);
    }
  });
  worker.on("error", (error) => gone(`the progress reading thread failed: ${error.message}`));
  worker.on("exit", (code) => gone(`the progress reading thread stopped (exit code ${code})`));
  thread = worker;
  return worker;
}

function idleSoon(): void {
  thread?.unref();
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (reads.size === 0) void stopProgressReader();
  }, IDLE_MS);
  idleTimer.unref();
}

/**
 * A sink for one answer's bytes (http.ts reads the answer into it), summed as `spec` says.
 *
 * @example
 * const sink = openReportSink(spec, { path: ["report", "transactions"], maxRowBytes: 1 << 20 });
 * sink.write(chunk); …; await sink.end(); sink.sums; // {before: {cents, gifts, …}, …}
 */
export function openReportSink(spec: TallySpec, shape: RowsShape): ReportSink {
  const worker = threadNow();
  const id = ++lastId;
  const read: Read = { unread: 0 };
  reads.set(id, read);
  const post = (message: ToReader, transfer?: ArrayBuffer[]) => worker.postMessage(message, transfer);
  post({ type: "open", id, spec, path: shape.path, maxRowBytes: shape.maxRowBytes });
  return {
    get sums() {
      return read.sums;
    },
    write(chunk) {
      if (read.failure) return read.failure;
      // A copy of the chunk's own bytes, handed over whole (a socket's chunk may share its memory).
      const bytes = new Uint8Array(chunk);
      read.unread += bytes.byteLength;
      post({ type: "bytes", id, bytes }, [bytes.buffer]);
      return undefined;
    },
    backlog() {
      if (read.failure || read.unread < READ_AHEAD_BYTES) return undefined;
      return new Promise<void>((resolve) => {
        read.room = () => {
          read.room = undefined;
          resolve();
        };
      });
    },
    end() {
      return new Promise<unknown>((resolve, reject) => {
        read.settle = { resolve, reject };
        if (read.failure) failRead(read, read.failure);
        else post({ type: "end", id });
      });
    },
    abort() {
      if (!reads.delete(id)) return;
      post({ type: "abort", id });
      if (reads.size === 0) idleSoon();
    },
  };
}

/** Stops the reading thread (a stopping proxy): reads under way fail, the next read starts another. */
export async function stopProgressReader(): Promise<void> {
  clearTimeout(idleTimer);
  const worker = thread;
  if (!worker) return;
  failEveryRead("the proxy is stopping");
  await worker.terminate();
}
