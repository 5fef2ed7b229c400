/**
 * Listening and closing, as the proxy, the sandbox and the demo page server all do it: on a
 * host and port (0 for any free one), resolved once listening, rejected when the port cannot
 * be had, and closed without waiting on idle keep-alive connections.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

export interface Listening {
  server: Server;
  /** e.g. "http://127.0.0.1:8787" (an IPv6 host in brackets) */
  url: string;
  port: number;
}

/**
 * @example
 * const { url, server } = await listen(app.fetch, "127.0.0.1", 0, { keepAliveMs: 65_000 });
 * await closeServer(server);
 */
export async function listen(
  fetch: Parameters<typeof serve>[0]["fetch"],
  host: string,
  port: number,
  options: { keepAliveMs?: number } = {},
): Promise<Listening> {
  const server = await new Promise<Server>((resolve, reject) => {
    const created = serve({ fetch, port, hostname: host }, () => resolve(created as Server)) as Server;
    created.once("error", reject);
  });
  if (options.keepAliveMs !== undefined) {
    server.keepAliveTimeout = options.keepAliveMs;
    // A request's headers may take as long as an idle connection is kept, and a little more.
    server.headersTimeout = Math.max(server.headersTimeout, options.keepAliveMs + 1000);
  }
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { server, url: `http://${shownHost}:${bound}`, port: bound };
}

/**
 * Stops taking connections and resolves once the server is closed. Idle connections end at
 * once; those still answering get `graceMs` to finish (0: they end at once too, even one
 * held open on purpose).
 */
export function closeServer(server: Server, graceMs = 0): Promise<void> {
  return new Promise((resolve) => {
    // A kept-alive connection whose request finishes during the grace is closed once idle.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
    if (graceMs === 0) server.closeAllConnections();
  });
}
