/**
 * One HTTP call to the upstream, told apart by what the proxy can know afterwards:
 * an answer; "not sent" (no connection was made, so nothing reached the upstream);
 * or "unknown" (the request may have arrived, and no answer came).
 */
import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { readJsonRows } from "./json-rows";

/**
 * Answers read whole are small; a bigger one is treated as no answer. Lists and reports are read
 * as streams (callUpstreamRows), where this is the bound on one row, not on the answer.
 */
export const MAX_UPSTREAM_RESPONSE_BYTES = 1024 * 1024;
/** A streamed list or report may be this big in all (about 3 million report rows). */
export const MAX_UPSTREAM_STREAM_BYTES = 2 * 1024 * 1024 * 1024;

export interface UpstreamAnswer {
  status: number;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: unknown;
}

/** The call failed. `not_sent`: safe to retry. `unknown`: the upstream may have acted on it. */
export class UpstreamTransportError extends Error {
  constructor(
    readonly kind: "not_sent" | "unknown",
    readonly reason: string,
    /** The request went out on a kept-alive socket the server may have closed meanwhile. */
    readonly reusedSocket: boolean,
  ) {
    super(`upstream ${kind}: ${reason}`);
    this.name = "UpstreamTransportError";
  }
}

export interface CallOptions {
  method: "GET" | "POST";
  url: URL;
  headers: Record<string, string>;
  body?: string;
  connectTimeoutMs: number;
  timeoutMs: number;
  /** false: a fresh connection, so "connected" means "this request was written to it". */
  agent: HttpAgent | false;
  /** Aborted when the proxy stops at once (a second stop signal): the call ends there, cut. */
  stop?: AbortSignal;
}

/** Keep-alive agents for calls that are safe to retry on a stale socket. */
export function createAgents() {
  const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: "lifo" as const };
  return { http: new HttpAgent(options), https: new HttpsAgent(options) };
}

/** How an answer's bytes are read: whole (small answers) or row by row (lists and reports). */
interface BodyReader {
  /** A reason to give up on the answer, or undefined to go on. */
  data(chunk: Buffer): string | undefined;
  /** The parsed body; throws (or rejects) when the bytes are not what was expected. */
  end(): unknown;
  /** While the reader is behind: resolves once it wants more bytes (the answer waits, paused). */
  backlog?(): Promise<void> | undefined;
  /** The call failed: what was read so far is dropped. */
  abort?(): void;
}

/** Reads the whole answer, at most MAX_UPSTREAM_RESPONSE_BYTES. */
function wholeBody(): BodyReader {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    data(chunk) {
      size += chunk.length;
      if (size > MAX_UPSTREAM_RESPONSE_BYTES) return "response too large";
      chunks.push(chunk);
      return undefined;
    },
    end: () => parseJson(Buffer.concat(chunks).toString("utf8")),
  };
}

/**
 * Sends one request and reads the whole answer.
 *
 * @example
 * const answer = await callUpstream({ method: "POST", url: new URL("http://127.0.0.1:4010/api/v2/…"), headers, body: "{}", connectTimeoutMs: 3000, timeoutMs: 15000, agent: false });
 */
export function callUpstream(options: CallOptions): Promise<UpstreamAnswer> {
  return exchange(options, wholeBody);
}

/** The longest an answer is read (and its rows handed over) before the event loop is given back. */
export const READ_SLICE_MS = 10;

/** Where an answer's rows are, and the bound on one. */
export interface RowsShape {
  /** The keys from the root to the answer's big array, e.g. ["report", "transactions"]. */
  path: readonly string[];
  /** The bound on one row (and on the envelope). */
  maxRowBytes: number;
}

/**
 * Reads an answer's bytes elsewhere (another thread: proxy/campaign/progress-reader.ts), rows and
 * envelope alike, instead of handing each row to `onRow` here.
 */
export interface RowsSink {
  /** The answer's next bytes; a reason to give up on it (the bytes were refused), or undefined. */
  write(chunk: Uint8Array): string | undefined;
  /** While the sink is behind: resolves once it wants more. */
  backlog(): Promise<void> | undefined;
  /** Once every byte is written: the answer with its rows' array empty; rejects with why not. */
  end(): Promise<unknown>;
  /** The call failed: the sink drops what it read. */
  abort(): void;
}

/** How a streamed answer's rows are read: each handed to `onRow` here, or its bytes to a sink. */
export type RowsOptions = {
  /** The keys from the root to the answer's big array, e.g. ["report", "transactions"]. */
  path: readonly string[];
  /** Default MAX_UPSTREAM_RESPONSE_BYTES: the bound on one row (and on the envelope). */
  maxRowBytes?: number;
  /** Default MAX_UPSTREAM_STREAM_BYTES: the bound on the whole answer. */
  maxBytes?: number;
} & (
  | {
      /** Each element of that array as it arrives; a throw gives up the call. */
      onRow(row: unknown): void;
    }
  | {
      /** A sink made for each answer, which reads its bytes (another thread: rows and envelope). */
      sink(shape: RowsShape): RowsSink;
    }
);

/**
 * Sends one request and reads a 2xx answer as a stream: each element of the array at `rows.path`
 * goes to `rows.onRow` as it arrives, never the whole answer in memory; `body` is the rest of the
 * answer with that array empty. Other answers (errors) are read whole, as callUpstream does.
 *
 * @example
 * const answer = await callUpstreamRows({ ...options, rows: { path: ["fundraisers"], onRow: (row) => index.add(row) } });
 */
export function callUpstreamRows(options: CallOptions & { rows: RowsOptions }): Promise<UpstreamAnswer> {
  const { rows } = options;
  const shape = { path: rows.path, maxRowBytes: rows.maxRowBytes ?? MAX_UPSTREAM_RESPONSE_BYTES };
  const maxBytes = rows.maxBytes ?? MAX_UPSTREAM_STREAM_BYTES;
  return exchange(options, (status) => {
    if (status < 200 || status >= 300) return wholeBody();
    const reader = "sink" in rows ? rows.sink(shape) : rowsHere({ ...shape, onRow: rows.onRow });
    let size = 0;
    let empty = true;
    return {
      data(chunk) {
        size += chunk.length;
        if (size > maxBytes) return "response too large";
        if (chunk.length > 0) empty = false;
        return reader.write(chunk);
      },
      end() {
        if (!empty) return reader.end();
        reader.abort();
        return undefined;
      },
      backlog: () => reader.backlog(),
      abort: () => reader.abort(),
    };
  });
}

const malformed = (error: unknown) =>
  `malformed answer: ${error instanceof Error ? error.message : String(error)}`;

/** The rows read on this thread, each to `onRow`: a sink with no backlog. */
function rowsHere(options: RowsShape & { onRow(row: unknown): void }): RowsSink {
  const reader = readJsonRows(options);
  return {
    write(chunk) {
      try {
        reader.write(chunk);
      } catch (error) {
        return malformed(error);
      }
      return undefined;
    },
    backlog: () => undefined,
    async end() {
      try {
        return reader.end();
      } catch (error) {
        throw new Error(malformed(error), { cause: error });
      }
    },
    abort: () => undefined,
  };
}

function exchange(options: CallOptions, bodyReader: (status: number) => BodyReader): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const tls = options.url.protocol === "https:";
    const send = tls ? httpsRequest : httpRequest;
    let connected = false;
    let settled = false;
    let req: ClientRequest | undefined;

    let reader: BodyReader | undefined;
    const fail = (kind: "not_sent" | "unknown", reason: string) => {
      if (settled) return;
      settled = true;
      reader?.abort?.();
      options.stop?.removeEventListener("abort", onStop);
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      reject(new UpstreamTransportError(kind, reason, req?.reusedSocket ?? false));
      req?.destroy();
    };

    const connectTimer = setTimeout(() => {
      if (!connected) fail("not_sent", "connect timeout");
    }, options.connectTimeoutMs);
    const totalTimer = setTimeout(
      () => fail(connected ? "unknown" : "not_sent", "timeout"),
      options.timeoutMs,
    );

    const onStop = () => fail(connected ? "unknown" : "not_sent", "stopped");
    if (options.stop?.aborted) {
      onStop();
      return;
    }
    options.stop?.addEventListener("abort", onStop, { once: true });

    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers["Content-Length"] = Buffer.byteLength(options.body);

    req = send(
      options.url,
      { method: options.method, headers, agent: options.agent },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const body = bodyReader(status);
        reader = body;
        // Reading (a big report's rows: parsed, checked, summed by the caller) runs in slices of
        // at most READ_SLICE_MS: the answer is paused and taken up again after the event loop has
        // served whatever else waits (a donation, a probe), instead of reading on while data is there.
        // A reader on another thread that falls behind pauses it until it catches up.
        let sliceStart: number | null = null;
        res.on("data", (chunk: Buffer) => {
          if (settled) return;
          sliceStart ??= performance.now();
          const stop = body.data(chunk);
          if (stop !== undefined) {
            fail("unknown", stop);
            return;
          }
          const behind = body.backlog?.();
          if (behind) {
            sliceStart = null;
            res.pause();
            void behind.then(() => res.resume());
          } else if (performance.now() - sliceStart >= READ_SLICE_MS) {
            sliceStart = null;
            res.pause();
            setImmediate(() => res.resume());
          }
        });
        res.on("end", async () => {
          if (settled) return;
          let parsed: unknown;
          try {
            parsed = await body.end();
          } catch (error) {
            fail("unknown", error instanceof Error ? error.message : String(error));
            return;
          }
          // The time limit or a stop may have come while the reader finished.
          if (settled) return;
          settled = true;
          options.stop?.removeEventListener("abort", onStop);
          clearTimeout(connectTimer);
          clearTimeout(totalTimer);
          resolve({ status, body: parsed });
        });
        res.on("aborted", () => fail("unknown", "response aborted"));
        res.on("error", (error: NodeJS.ErrnoException) => fail("unknown", error.code ?? "response error"));
      },
    );

    req.on("socket", (socket: Socket) => {
      if (!socket.connecting) {
        connected = true;
        return;
      }
      socket.once(tls ? "secureConnect" : "connect", () => {
        connected = true;
        clearTimeout(connectTimer);
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      fail(connected ? "unknown" : "not_sent", error.code ?? error.message);
    });
    req.end(options.body);
  });
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
