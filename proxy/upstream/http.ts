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

/** Upstream answers are small; a bigger one is treated as no answer. */
export const MAX_UPSTREAM_RESPONSE_BYTES = 1024 * 1024;

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
}

/** Keep-alive agents for calls that are safe to retry on a stale socket. */
export function createAgents() {
  const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: "lifo" as const };
  return { http: new HttpAgent(options), https: new HttpsAgent(options) };
}

/**
 * Sends one request and reads the whole answer.
 *
 * @example
 * const answer = await callUpstream({ method: "POST", url: new URL("http://127.0.0.1:4010/api/v2/…"), headers, body: "{}", connectTimeoutMs: 3000, timeoutMs: 15000, agent: false });
 */
export function callUpstream(options: CallOptions): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const tls = options.url.protocol === "https:";
    const send = tls ? httpsRequest : httpRequest;
    let connected = false;
    let settled = false;
    let req: ClientRequest | undefined;

    const fail = (kind: "not_sent" | "unknown", reason: string) => {
      if (settled) return;
      settled = true;
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

    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers["Content-Length"] = Buffer.byteLength(options.body);

    req = send(
      options.url,
      { method: options.method, headers, agent: options.agent },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_UPSTREAM_RESPONSE_BYTES) fail("unknown", "response too large");
          else chunks.push(chunk);
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(connectTimer);
          clearTimeout(totalTimer);
          resolve({ status: res.statusCode ?? 0, body: parseJson(Buffer.concat(chunks).toString("utf8")) });
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
