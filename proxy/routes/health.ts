/**
 * GET /v1/health: liveness and the store. A proxy whose database is out of reach answers 503
 * `{"status":"degraded"}`, so a load balancer sends donations to another.
 */
import { Hono } from "hono";
import type { AppEnv } from "../context";
import type { Store } from "../store";

export function healthRoutes(deps: { store: Store }) {
  return new Hono<AppEnv>().get("/v1/health", async (c) => {
    if (await deps.store.healthy()) return c.json({ status: "ok", store: deps.store.kind });
    return c.json({ status: "degraded", store: deps.store.kind, problem: "store_unavailable" }, 503);
  });
}
