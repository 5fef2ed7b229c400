/**
 * The sandbox's own inspection endpoints (no auth; not part of the upstream interface):
 * GET /_sandbox/requests and GET /_sandbox/subscriptions.
 */
import { Hono } from "hono";
import type { SandboxEnv, SandboxRuntime } from "../http";

export interface LoggedRequest {
  method: string;
  path: string;
  at: string;
}

export function inspectRoutes(runtime: SandboxRuntime, requests: readonly LoggedRequest[]): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.get("/_sandbox/requests", (c) => c.json({ requests }));
  app.get("/_sandbox/subscriptions", (c) => c.json({ subscriptions: runtime.store.subscriptions() }));
  return app;
}
