/**
 * GET /metrics: Prometheus text, for whoever holds GIVEKIT_METRICS_TOKEN (a Bearer token). With
 * no token configured the route does not exist (404); a missing or wrong one is 401, no figures.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppEnv } from "../context";
import type { Metrics } from "../metrics";
import { ProblemError, problemResponse } from "../problem";

const digest = (text: string) => createHash("sha256").update(text).digest();

export function metricsRoutes(deps: { metrics: Metrics; token: string | null }) {
  const app = new Hono<AppEnv>();
  const token = deps.token;
  if (token === null) return app;
  const expected = digest(token);
  return app.get("/metrics", async (c) => {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
    // Hashes of equal length compared in constant time: the token's length leaks nothing either.
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      const refused = problemResponse(
        new ProblemError("unauthorized", "Send the metrics token as Authorization: Bearer ….", undefined, {
          "WWW-Authenticate": 'Bearer realm="givekit metrics"',
        }),
      );
      return refused;
    }
    c.header("Cache-Control", "no-store");
    return c.body(await deps.metrics.registry.metrics(), 200, {
      "Content-Type": deps.metrics.registry.contentType,
    });
  });
}
