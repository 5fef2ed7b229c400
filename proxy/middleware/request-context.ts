/**
 * First in line after hono/request-id: gives each request its client address, answers with
 * its id, and writes the request's one log line when it is done.
 */
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { clientIp } from "../client-ip";
import type { AppEnv } from "../context";

/**
 * @example
 * app.use("*", requestId({ headerName: "" }), requestContext({ logger, trustProxyHops: 0 }));
 */
export function requestContext(options: {
  logger: Logger;
  trustProxyHops: number;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = c.get("requestId");
    const ip = clientIp(
      c.env?.incoming?.socket?.remoteAddress,
      c.req.header("x-forwarded-for"),
      options.trustProxyHops,
    );
    c.set("clientIp", ip);
    c.set("logFields", {});
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    // A 5xx is the proxy's or the store's failure (or the upstream's, passed on): someone must look.
    const level = c.res.status >= 500 ? "error" : "info";
    options.logger[level](
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
