/** The sandbox's HTTP app: the upstream API v2 as a stateful local server. */
import { setTimeout as sleep } from "node:timers/promises";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { ApiError, type SandboxEnv, type SandboxRuntime, errorBody } from "./http";
import { donationRoutes } from "./routes/donations";
import { type LoggedRequest, inspectRoutes } from "./routes/inspect";
import { textGiftRoutes } from "./routes/text-gifts";
import { peerRoutes } from "./routes/peers";
import { reportRoutes } from "./routes/reports";
import { subscriptionRoutes } from "./routes/subscriptions";
import { userRoutes } from "./routes/users";
import type { Ledger } from "./ledger";

/** The request log keeps at least this many entries (the oldest go first). */
export const MAX_LOGGED_REQUESTS = 100_000;
const LOG_TRIM_BATCH = 10_000;
const INSPECTION_PREFIX = "/_sandbox/";

export interface SandboxDeps {
  ledger: Ledger;
  /** Session token lifetime, in seconds. */
  sessionTtlS: number;
  /** Delay added before every answer, in milliseconds. */
  latencyMs: number;
  /** The clock (tests may move it). */
  now?: () => Date;
}

/**
 * Builds the sandbox app. Serve it with @hono/node-server (see sandbox/listen.ts): the fault
 * triggers and GET bodies need the node:http request underneath.
 *
 * @example
 * const ledger = openLedger(":memory:", loadFixtureFile("sandbox/fixtures/demo.json"));
 * const app = createApp({ ledger, sessionTtlS: 3600, latencyMs: 0 });
 * serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
 */
export function createApp(deps: SandboxDeps): Hono<SandboxEnv> {
  const runtime: SandboxRuntime = {
    ledger: deps.ledger,
    now: deps.now ?? (() => new Date()),
    sessionTtlS: deps.sessionTtlS,
  };
  const requests: LoggedRequest[] = [];
  const app = new Hono<SandboxEnv>();

  app.use(async (c, next) => {
    c.set("envelope", "none");
    if (!c.req.path.startsWith(INSPECTION_PREFIX)) {
      requests.push({ method: c.req.method, path: c.req.path, at: runtime.now().toISOString() });
      // Trimmed in batches: shifting a long array on every request would cost O(n) each time.
      if (requests.length >= MAX_LOGGED_REQUESTS + LOG_TRIM_BATCH) {
        requests.splice(0, requests.length - MAX_LOGGED_REQUESTS);
      }
    }
    if (deps.latencyMs > 0) await sleep(deps.latencyMs);
    await next();
  });

  // A known path asked with another method: 405 with Allow rather than 404.
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        const error = new ApiError(
          405,
          "method_not_allowed",
          `${c.req.method} ${c.req.path} is not allowed; use ${methods.join(" or ")}.`,
        );
        return c.json(errorBody(error, "none"), 405, { Allow: methods.join(", ") });
      },
    }),
  );

  app.route("/", userRoutes(runtime));
  app.route("/", donationRoutes(runtime));
  app.route("/", subscriptionRoutes(runtime));
  app.route("/", peerRoutes(runtime));
  app.route("/", reportRoutes(runtime));
  app.route("/", inspectRoutes(runtime, requests));
  app.route("/", textGiftRoutes(runtime));

  app.notFound((c) =>
    c.json(
      { error: { code: "not_found", message: `No such endpoint: ${c.req.method} ${c.req.path}.` } },
      404,
    ),
  );

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      return c.json(errorBody(error, c.get("envelope") ?? "none"), error.status);
    }
    console.error("[sandbox] unexpected error:", error);
    const internal = new ApiError(
      500,
      "internal_error",
      "The sandbox failed unexpectedly.",
      undefined,
      false,
    );
    return c.json(errorBody(internal, "none"), 500);
  });

  return app;
}
