/**
 * Counts what donors got, for GET /metrics, from what the routes already put in the request's
 * log fields: a donation's state (or replay, or the refusal's code), a tokenization's result,
 * and every refusal by a limit. Nothing is counted twice and no route knows about metrics.
 */
import type { Context } from "hono";
import type { AppEnv } from "../context";
import type { Metrics } from "../metrics";

/** The codes a per-client limit or a donor's declines answer with. */
const LIMIT_CODES = new Set(["rate_limited", "too_many_declines"]);

/** The routes counted, by method and path, under the names their counters use. */
const ROUTES: Record<string, string> = {
  "POST /v1/donations": "donations",
  "POST /v1/payment-tokens": "payment_tokens",
  "POST /v1/subscriptions": "subscriptions",
  "POST /v1/form-sessions": "form_sessions",
};

/**
 * Counts the answer just given (httpMetrics calls it once the request is answered, in the same
 * step as its own counts: one middleware, not two).
 *
 * @example
 * await next();
 * countOutcome(metrics, c);
 */
export function countOutcome(metrics: Metrics, c: Context<AppEnv>): void {
  const fields = c.get("logFields");
  const code = typeof fields.code === "string" ? fields.code : undefined;
  const method = c.req.method;
  const path = c.req.path;
  const route =
    ROUTES[`${method} ${path}`] ??
    (method === "GET" && path.startsWith("/v1/donations/") ? "donation_status" : undefined);
  if (route === undefined) return;
  if (code && LIMIT_CODES.has(code)) metrics.rateLimitRefusals.inc({ route, code });
  if (route === "donations") {
    const outcome =
      fields.idempotency === "replayed"
        ? "replayed"
        : typeof fields.outcome === "string"
          ? fields.outcome
          : (code ?? `http_${c.res.status}`);
    metrics.donations.inc({ outcome });
  } else if (route === "payment_tokens") {
    const outcome =
      c.res.status === 201
        ? "created"
        : fields.filtered
          ? "filtered"
          : fields.upstreamStatus !== undefined
            ? "refused_upstream"
            : (code ?? `http_${c.res.status}`);
    metrics.tokenizations.inc({ outcome });
  }
}
