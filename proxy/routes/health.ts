/** GET /v1/health: liveness. */
import { Hono } from "hono";
import type { AppEnv } from "../context";

export function healthRoutes() {
  return new Hono<AppEnv>().get("/v1/health", (c) => c.json({ status: "ok" }));
}
