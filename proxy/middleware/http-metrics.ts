/**
 * Counts every request by its route's pattern (bounded: never a raw path), method and status
 * class, times it, and counts SMS opt-ins by outcome, for GET /metrics; then what donors got
 * (count-outcomes.ts), so the answer is counted in one middleware, not two.
 */
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../context";
import type { Metrics } from "../metrics";
import { countOutcome } from "./count-outcomes";

/** Methods a label may hold; anything else is "other" (a client chooses the method). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * `queuesEvents`: webhook endpoints are configured, so a charged gift also queues events the
 * outbox's gauges count.
 *
 * @example
 * app.use("*", httpMetrics(metrics, config.webhooks.length > 0));
 */
export function httpMetrics(metrics: Metrics, queuesEvents = false): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const pattern = routePath(c, -1);
    // A path no route answers is one label, whatever a scanner asks for.
    const route = status === 404 && pattern.includes("*") ? "unmatched" : pattern || "unmatched";
    const method = METHODS.has(c.req.method) ? c.req.method : "other";
    metrics.httpRequests.inc({ route, method, status: `${Math.floor(status / 100)}xx` });
    metrics.httpSeconds.observe({ route, method }, (performance.now() - started) / 1000);
    // A donation that may have left an attempt unknown, counted a decline towards defence mode or
    // queued webhook events: the gauges read from the store follow. A clean success without
    // endpoints, or a replay, changes none, and reading them again after each one would cost
    // every donation a scan of the store.
    if (
      method === "POST" &&
      c.req.path === "/v1/donations" &&
      mayChangeStoreFigures(c.get("logFields"), queuesEvents)
    )
      metrics.storeChanged();
    // A bot filter's refusal says why in the log fields (honeypot, form_signals, a form session's reason).
    const filtered = c.get("logFields")?.filtered;
    if (typeof filtered === "string" && /^[a-z_]{1,40}$/.test(filtered))
      metrics.botRefusals.inc({ reason: filtered });
    if (method === "POST" && c.req.path === "/v1/subscriptions") {
      const code = c.get("logFields")?.code;
      metrics.optIns.inc({
        outcome: status === 201 ? "subscribed" : typeof code === "string" ? code : `http_${status}`,
      });
    }
    // What donors got, in the same step (count-outcomes.ts).
    countOutcome(metrics, c);
  };
}

/**
 * Whether a donation's answer may have changed what the store's gauges count (unknown attempts,
 * defence mode, the webhook outbox): anything but a replay, or a success recorded as such that
 * queued no event.
 */
function mayChangeStoreFigures(fields: Record<string, unknown> | undefined, queuesEvents: boolean): boolean {
  if (fields?.idempotency === "replayed") return false;
  return queuesEvents || !(fields?.outcome === "succeeded" && fields.record === undefined);
}
