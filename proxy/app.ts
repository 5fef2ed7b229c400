/**
 * The proxy's HTTP app. `createApp(deps)` wires the guards and routes; it opens nothing
 * itself, so tests hand it what they like (see proxy/listen.ts for the real wiring).
 */
import { Hono } from "hono";
import type { Logger } from "pino";
import { createCampaignDirectory } from "./campaigns";
import type { ProxyConfig } from "./config";
import type { AppEnv } from "./context";
import { cors } from "./middleware/cors";
import { createRateLimits, type RateLimits } from "./middleware/rate-limit";
import { requestContext } from "./middleware/request-context";
import { createPeersCache } from "./peers";
import { PROBLEM_KINDS, ProblemError, problemResponse } from "./problem";
import { campaignRoutes } from "./routes/campaigns";
import { donationRoutes } from "./routes/donations";
import { healthRoutes } from "./routes/health";
import { paymentTokenRoutes } from "./routes/payment-tokens";
import { subscriptionRoutes } from "./routes/subscriptions";
import { widgetRoutes } from "./routes/widget";
import type { Store } from "./store";
import type { UpstreamClient } from "./upstream/client";

export interface AppDeps {
  config: ProxyConfig;
  logger: Logger;
  /** Everything the proxy keeps (proxy/store: SQLite or PostgreSQL). */
  store: Store;
  /** Key of the body fingerprint HMAC (resolveJournalSecret). */
  journalSecret: string;
  upstream: UpstreamClient;
  /** Made from config.rateLimits when not given. */
  rateLimits?: RateLimits;
}

/** Paths and the methods they answer, for 405 with an Allow header. */
const ROUTE_METHODS: [string, string][] = [
  ["/v1/health", "GET"],
  ["/v1/campaigns/:shortcode/:keyword", "GET"],
  ["/v1/campaigns/:shortcode/:keyword/peers", "GET"],
  ["/v1/payment-tokens", "POST"],
  ["/v1/donations", "POST"],
  ["/v1/subscriptions", "POST"],
];

/**
 * Builds the proxy's Hono app.
 *
 * @example
 * const config = loadConfig(process.env);
 * const store = await openStore(config);
 * const app = createApp({ config, logger: createLogger("info"), store,
 *   journalSecret: resolveJournalSecret(config.dataDir, config.journalSecret),
 *   upstream: createUpstreamClient(config.upstream) });
 * const res = await app.request("/v1/health"); // 200 {"status":"ok","store":"sqlite"}
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const { config, logger, store, upstream } = deps;
  const campaigns = createCampaignDirectory(config.campaigns);
  const rateLimits = deps.rateLimits ?? createRateLimits(config.rateLimits, store.rateLimitStore);
  const peers = createPeersCache(upstream, config.peersCacheS);

  const app = new Hono<AppEnv>();
  app.use("*", requestContext({ logger, trustProxyHops: config.trustProxyHops }));
  app.use("/v1/*", cors(config.allowedOrigins));

  app.route("/", healthRoutes({ store }));
  app.route("/", campaignRoutes({ campaigns, peers }));
  app.route("/", paymentTokenRoutes({ upstream, rateLimits }));
  app.route(
    "/",
    donationRoutes({ campaigns, upstream, store, journalSecret: deps.journalSecret, rateLimits }),
  );
  app.route("/", subscriptionRoutes({ campaigns, upstream, store, rateLimits }));
  app.route("/", widgetRoutes({ widgetDir: config.widgetDir, allowedOrigins: config.allowedOrigins }));

  for (const [path, method] of ROUTE_METHODS) {
    app.all(path, () => {
      throw new ProblemError("method_not_allowed", `Use ${method}.`, undefined, { Allow: method });
    });
  }

  app.notFound(() => problemResponse(new ProblemError("not_found", "There is nothing at this address.")));
  app.onError((error, c) => {
    if (error instanceof ProblemError) {
      c.set("logFields", { ...c.get("logFields"), code: error.code });
      return problemResponse(error);
    }
    c.set("logFields", { ...c.get("logFields"), code: "internal_error", error: errorSummary(error) });
    return problemResponse(new ProblemError("internal_error", PROBLEM_KINDS.internal_error.title));
  });
  return app;
}

/** An unexpected error for the log: its name and message, which never hold request data. */
function errorSummary(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 500) : "non-error thrown";
}
