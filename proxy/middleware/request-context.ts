/**
 * First in line: gives each request an id and its client address, adds the security headers
 * every answer carries, and writes the request's one log line when it is done.
 */
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { clientIp } from "../client-ip";
import type { AppEnv } from "../context";

/** Headers every answer carries unless its route set its own. */
export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  "Cross-Origin-Resource-Policy": "same-site",
  "Strict-Transport-Security": "max-age=31536000",
  "Cache-Control": "no-store",
};

/**
 * @example
 * app.use("*", requestContext({ logger, trustProxyHops: 0 }));
 */
export function requestContext(options: {
  logger: Logger;
  trustProxyHops: number;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    const ip = clientIp(
      c.env?.incoming?.socket?.remoteAddress,
      c.req.header("x-forwarded-for"),
      options.trustProxyHops,
    );
    c.set("requestId", requestId);
    c.set("clientIp", ip);
    c.set("logFields", {});
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      // Straight onto the Node response: the answer's own headers still win, and the fast path
      // of the server adapter (plain header objects) is kept.
      for (const name in SECURITY_HEADERS) outgoing.setHeader(name, SECURITY_HEADERS[name]!);
      outgoing.setHeader("X-Request-Id", requestId);
      await next();
      // A route that may be framed (the card frame) says who may frame it in its own CSP.
      if (c.get("framable")) outgoing.removeHeader("X-Frame-Options");
    } else {
      await next();
      const headers = c.res.headers;
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        if (c.get("framable") && name === "X-Frame-Options") continue;
        if (!headers.has(name)) headers.set(name, value);
      }
      headers.set("X-Request-Id", requestId);
    }
    options.logger.info(
      {
        reqId: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ip,
        ...c.get("logFields"),
      },
      "request",
    );
  };
}
