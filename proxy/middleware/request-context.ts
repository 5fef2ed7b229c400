/**
 * First in line after hono/request-id: gives each request its client address (by who the peer
 * is: client-ip.ts), answers with its id, runs the request in a log scope that puts the id on
 * every line it logs, and writes the request's one log line, at the level of whose problem it is.
 * A request whose handling logs no line of its own (UNSCOPED_PATHS) runs outside the scope: its id
 * is on its lines by hand.
 */
import { randomFillSync } from "node:crypto";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { Logger } from "pino";
import {
  addressProblem,
  clientAddress,
  compileTrust,
  type AddressProblem,
  type ClientAddress,
} from "../client-ip";
import type { AppEnv } from "../context";
import { inRequestScope } from "../logger";

export interface RequestContextOptions {
  logger: Logger;
  /** GIVEKIT_TRUST_PROXY (config.trustProxy). */
  trustProxy: { addresses: string[]; explicit: boolean };
  /** Told of every request whose address GIVEKIT_TRUST_PROXY cannot vouch for (metrics count them). */
  onAddressProblem?: (problem: AddressProblem) => void;
}

/** Codes that say someone other than the donor must look: the store, the upstream, the proxy. */
const NOT_THE_DONORS = new Set(["store_unavailable", "upstream_unavailable", "upstream_error"]);
/** Probes answer often; a failing one is news for the operator, not an error each time. */
const PROBES = new Set(["/v1/health", "/v1/ready"]);

/**
 * Requests whose handling writes no log line but the request's own (and the address warning, which
 * names the id itself): they run outside the log scope. The scope is Node 20's AsyncLocalStorage,
 * which hooks every promise made while any scope has ever been entered (about 0.3 µs against 0.14
 * each), and twice as much inside one: an opt-in, the probes, the metrics and the widget's own files
 * are the proxy's most frequent requests. A route whose work may log a line of its own (the
 * defence, a campaign's reads, the dashboard) must not be here.
 */
export const UNSCOPED_PATHS: ReadonlySet<string> = new Set([
  "/v1/subscriptions",
  "/v1/health",
  "/v1/ready",
  "/metrics",
  "/widget.js",
  "/givekit.js",
]);
/** The widget's hashed files (routes/widget.ts): served from memory or disk, logging nothing. */
const UNSCOPED_PREFIX = "/assets/";

/** How many peers and X-Forwarded-For values are remembered with their client address. */
const ADDRESSES_KEPT = 1000;
/** A longer X-Forwarded-For is read each time, never kept. */
const FORWARDED_FOR_KEPT = 200;

const ID_BYTES = 16;
/**
 * Random bytes for 256 ids, drawn at once: asking the system's generator for 16 bytes took about
 * 2 µs a request, most of it the call itself.
 */
const ID_POOL = Buffer.alloc(ID_BYTES * 256);
let idBytesUsed = ID_POOL.length;

/**
 * A request's id when the reverse proxy gave none: 16 random bytes (as unique as a UUID's 122
 * random bits, and more), base64url, 22 characters where a UUID takes 36 on every answer.
 *
 * @example
 * newRequestId(); // "3q2-7wAAAABfX19fX19fXw"
 */
export function newRequestId(): string {
  if (idBytesUsed === ID_POOL.length) {
    randomFillSync(ID_POOL);
    idBytesUsed = 0;
  }
  idBytesUsed += ID_BYTES;
  return ID_POOL.toString("base64url", idBytesUsed - ID_BYTES, idBytesUsed);
}

/**
 * @example
 * app.use("*", requestId({ headerName: "X-Request-Id" }), requestContext({ logger, trustProxy: config.trustProxy }));
 */
export function requestContext(options: RequestContextOptions): MiddlewareHandler<AppEnv> {
  const trust = compileTrust(options.trustProxy.addresses);
  const warned = new Set<AddressProblem>();
  const problem = (kind: AddressProblem, address: ClientAddress, reqId: string) => {
    options.onAddressProblem?.(kind);
    if (warned.has(kind)) return;
    warned.add(kind);
    options.logger.warn(
      { reqId, peer: address.peer, problem: kind },
      addressAdvice(kind, address, options.trustProxy),
    );
  };
  // The same peer and header give the same address: a client's next requests (a kept-alive
  // connection, or the reverse proxy's) skip the walk through the header.
  const known = new Map<string, ClientAddress>();
  const addressOf = (peer: string | undefined, forwardedFor: string | undefined): ClientAddress => {
    if (peer === undefined || (forwardedFor !== undefined && forwardedFor.length > FORWARDED_FOR_KEPT))
      return clientAddress(peer, forwardedFor, trust);
    const key = forwardedFor === undefined ? peer : `${peer} ${forwardedFor}`;
    let address = known.get(key);
    if (!address) {
      address = clientAddress(peer, forwardedFor, trust);
      if (known.size >= ADDRESSES_KEPT) known.clear();
      known.set(key, address);
    }
    return address;
  };
  const answer = async (c: Context<AppEnv>, next: Next) => {
    const started = performance.now();
    const requestId = c.get("requestId");
    const address = addressOf(c.env?.incoming?.socket?.remoteAddress, c.req.header("x-forwarded-for"));
    const found = addressProblem(address, c.req.path);
    if (found) problem(found, address, requestId);
    const ip = address.ip;
    c.set("clientIp", ip);
    c.set("logFields", {});
    await next();
    // A script or stylesheet sent, a preflight's or a beacon's 204, needs no id: no one reads it
    // there, and the log line carries it. Every other answer, errors about those files too,
    // names its request.
    const unread = (c.get("subresource") && c.res.status < 400) || c.res.status === 204;
    if (unread) c.res.headers.delete("X-Request-Id");
    else c.res.headers.set("X-Request-Id", requestId);
    const fields = c.get("logFields");
    options.logger[levelOf(c.req.path, c.res.status, fields)](
      {
        reqId: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ip,
        ...fields,
      },
      "request",
    );
  };
  // The whole request in its log scope (but those of UNSCOPED_PATHS): any line logged on its way names it.
  return (c, next) => {
    const path = c.req.path;
    if (UNSCOPED_PATHS.has(path) || path.startsWith(UNSCOPED_PREFIX)) return answer(c, next);
    return inRequestScope(c.get("requestId"), () => answer(c, next));
  };
}

/**
 * The request line's level, by whose problem it is: a donor's card or input is info; the
 * upstream or the store failing, or a donation whose charge is unknown, warn; the proxy's own
 * fault error.
 */
export function levelOf(
  path: string,
  status: number,
  fields: Record<string, unknown>,
): "info" | "warn" | "error" {
  if (PROBES.has(path)) return "info";
  if (fields.outcome === "unknown" || fields.upstream !== undefined) return "warn";
  // A card the upstream refused (declined, or its Fatal answer) is the donor's: info.
  if (fields.outcome === "declined" || fields.outcome === "failed") return "info";
  if (typeof fields.code === "string" && NOT_THE_DONORS.has(fields.code)) return "warn";
  if (fields.record !== undefined || fields.consentOutcome === "unrecorded") return "warn";
  // An opt-in list the upstream's account does not have: the campaigns file is wrong.
  if (fields.listMissing !== undefined) return "warn";
  return status >= 500 ? "error" : "info";
}

/** The warning's text: what is wrong and the variable that fixes it. */
function addressAdvice(
  kind: AddressProblem,
  address: ClientAddress,
  trustProxy: RequestContextOptions["trustProxy"],
): string {
  const now = trustProxy.addresses.length > 0 ? trustProxy.addresses.join(",") : "none";
  if (kind === "untrusted_forwarder")
    return (
      `X-Forwarded-For came from ${address.peer}, which GIVEKIT_TRUST_PROXY (${now}) does not trust, so the header is ignored ` +
      `and every donor behind it counts as one client (limits, declines, challenges). If ${address.peer} is your reverse proxy, ` +
      `add it: GIVEKIT_TRUST_PROXY=${[...trustProxy.addresses, address.peer].join(",")}; if nothing should be in front, ` +
      `this is a client forging the header (and is not believed). Told once; givekit_client_address_problems_total counts them.`
    );
  return (
    `a request from ${address.peer}, a trusted reverse proxy (GIVEKIT_TRUST_PROXY=${now}${trustProxy.explicit ? "" : ", the default: HOST is loopback"}), ` +
    `came without X-Forwarded-For, so every donor behind it counts as ${address.peer}. Make the reverse proxy set it ` +
    `(nginx: proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; Caddy does by itself), or set ` +
    `GIVEKIT_TRUST_PROXY=none if nothing is in front (a browser or curl on this host is such a request too). ` +
    `Told once; givekit_client_address_problems_total counts them.`
  );
}
