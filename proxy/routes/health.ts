/**
 * GET /v1/health: liveness. "This process works": it answers 200 whenever the event loop does,
 * and never asks the store or the upstream, so a platform never restarts every proxy because a
 * database or the fundraising service is away.
 *
 * GET /v1/ready: readiness, for a load balancer and a rolling deploy. 503 only for a reason of
 * this proxy's own: it was asked to stop (`stopping`), or its own SQLite store does not answer.
 * What every proxy shares (the upstream, a PostgreSQL database) is said in the body with
 * `status: "degraded"` and a 200: taking every proxy out of the pool would also stop serving the
 * widget, the card frame and donors' status lookups, and would not bring the upstream back.
 */
import { Hono } from "hono";
import type { AppEnv } from "../context";
import type { Store } from "../store";

/** Whether the proxy was asked to stop (listen.ts sets it; readiness reads it). */
export interface Lifecycle {
  draining: boolean;
}

export function healthRoutes(deps: {
  /** Which store, and whether it answers: all readiness asks of it. */
  store: Pick<Store, "kind" | "healthy">;
  lifecycle: Lifecycle;
  /** Whether the upstream answers at all (any HTTP status), cached briefly. */
  upstreamReachable: () => Promise<boolean>;
}) {
  return new Hono<AppEnv>()
    .get("/v1/health", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json({ status: "ok", store: deps.store.kind });
    })
    .get("/v1/ready", async (c) => {
      c.header("Cache-Control", "no-store");
      if (deps.lifecycle.draining) return c.json({ status: "stopping" }, 503);
      const [store, upstream] = await Promise.all([
        deps.store.healthy().catch(() => false),
        deps.upstreamReachable().catch(() => false),
      ]);
      // SQLite is this proxy's own: without it, it takes no donation another proxy could take.
      const ownStoreDown = !store && deps.store.kind === "sqlite";
      const status = ownStoreDown ? "not_ready" : store && upstream ? "ready" : "degraded";
      return c.json({ status, store, upstream }, ownStoreDown ? 503 : 200);
    });
}
