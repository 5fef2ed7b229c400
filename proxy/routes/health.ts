/**
 * GET /v1/health: liveness and the store. A proxy whose database is out of reach answers 503
 * `{"status":"degraded"}`, so a load balancer sends donations to another.
 *
 * GET /v1/ready: readiness, for a load balancer or a rolling deploy: 200 when the store answers
 * and the upstream can be reached, 503 naming what cannot, and 503 `stopping` from the moment
 * the proxy was asked to stop (it still finishes what it had).
 */
import { Hono } from "hono";
import type { AppEnv } from "../context";
import type { Store } from "../store";

/** Whether the proxy was asked to stop (listen.ts sets it; readiness reads it). */
export interface Lifecycle {
  draining: boolean;
}

export function healthRoutes(deps: {
  store: Store;
  lifecycle: Lifecycle;
  /** Whether the upstream answers at all (any HTTP status), cached briefly. */
  upstreamReachable: () => Promise<boolean>;
}) {
  return new Hono<AppEnv>()
    .get("/v1/health", async (c) => {
      if (await deps.store.healthy()) return c.json({ status: "ok", store: deps.store.kind });
      return c.json({ status: "degraded", store: deps.store.kind, problem: "store_unavailable" }, 503);
    })
    .get("/v1/ready", async (c) => {
      c.header("Cache-Control", "no-store");
      if (deps.lifecycle.draining) return c.json({ status: "stopping" }, 503);
      const [store, upstream] = await Promise.all([
        deps.store.healthy().catch(() => false),
        deps.upstreamReachable().catch(() => false),
      ]);
      const body = { status: store && upstream ? "ready" : "not_ready", store, upstream };
      return c.json(body, store && upstream ? 200 : 503);
    });
}
