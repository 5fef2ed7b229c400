/**
 * CORS for the API: only ALLOWED_ORIGINS (and the proxy's own origin, where the card frame
 * lives, which needs no CORS header to read its answers) may call it from a browser. A POST from any other origin is refused with 403 before
 * anything else happens; a GET from one is answered without CORS headers, so the browser
 * keeps the answer from that page.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { ProblemError } from "../problem";

const ALLOWED_HEADERS = "Content-Type, Idempotency-Key, Accept, Accept-Language";
/** Those a page may read, each exposed where the answer has it (every API answer has its id). */
const EXPOSABLE_HEADERS = ["Idempotent-Replayed", "Retry-After"] as const;
/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = "600";

/** True when the Origin header names this proxy itself (same host and port). */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * @example
 * app.use("/v1/*", cors(["https://shelter.example"]));
 */
export function cors(allowedOrigins: readonly string[]): MiddlewareHandler<AppEnv> {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    const origin = c.req.header("origin");
    // No Origin: not a cross-site browser request (curl, a server, a same-origin GET).
    if (origin === undefined) return next();
    const own = isOwnOrigin(origin, c.req.header("host"));
    const permitted = allowed.has(origin) || own;
    const method = c.req.method;
    if (!permitted) {
      c.set("logFields", { ...c.get("logFields"), origin: origin.slice(0, 200) });
      if (method !== "GET" && method !== "HEAD") {
        throw new ProblemError(
          "origin_not_allowed",
          "This page's origin is not in the proxy's ALLOWED_ORIGINS.",
        );
      }
      await next();
      c.res.headers.append("Vary", "Origin");
      return;
    }
    // No Access-Control-Allow-Methods: the API's are GET and POST, CORS-safelisted methods a
    // preflight allows without it (Fetch, "CORS-preflight fetch").
    if (method === "OPTIONS") {
      return c.body(null, 204, {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Headers": ALLOWED_HEADERS,
        "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_S,
        Vary: "Origin",
      });
    }
    await next();
    // The card frame's own calls (its form session, the card, the step beacons) are same-origin:
    // the browser reads them without CORS, so the two headers would be bytes for nothing.
    if (!own || allowed.has(origin)) {
      c.res.headers.set("Access-Control-Allow-Origin", origin);
      const exposed = EXPOSABLE_HEADERS.filter((name) => c.res.headers.has(name));
      c.res.headers.set("Access-Control-Expose-Headers", [...exposed, "X-Request-Id"].join(", "));
    }
    c.res.headers.append("Vary", "Origin");
  };
}
