/**
 * The proxy's HTTP app. `createApp(deps)` wires the guards and routes; it opens nothing
 * itself, so tests hand it what they like (see proxy/listen.ts for the real wiring).
 */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import type { Logger } from "pino";
import { createCampaignDirectory, loadDisplays, type CampaignDirectory } from "./campaign/directory";
import { displayRoutes } from "./routes/display";
import { createDashboardAccess } from "./dashboard/access";
import { formEventRoutes } from "./dashboard/form-events";
import { createFormOutcomes } from "./dashboard/form-outcomes";
import { createAlerts } from "./webhooks/alerts";
import { dashboardPages } from "./dashboard/pages";
import { countUpstream, createOpsCounter } from "./dashboard/ops-counts";
import { dashboardRoutes } from "./dashboard/routes";
import { designerRoutes } from "./dashboard/forms";
import { createSavedFormReader } from "./campaign/saved-forms";
import type { ProxyConfig } from "./config";
import type { AppEnv } from "./context";
import { cors } from "./middleware/cors";
import { createRateLimits, type RateLimits } from "./middleware/rate-limit";
import { proxyCounters } from "./store/counters";
import { httpMetrics } from "./middleware/http-metrics";
import { newRequestId, requestContext } from "./middleware/request-context";
import { securityHeaders } from "./middleware/security-headers";
import { createPeersCache } from "./campaign/peers";
import { PROBLEM_KINDS, ProblemError, problemOf, problemResponse } from "./problem";
import { createProgressCache } from "./campaign/progress";
import { campaignRoutes } from "./routes/campaigns";
import { wallRoutes } from "./routes/wall";
import { createGalaFeed } from "./campaign/gala-feed";
import { createLiveHub } from "./campaign/live-hub";
import { donationRoutes } from "./routes/donations";
import { healthRoutes, type Lifecycle } from "./routes/health";
import { metricsRoutes } from "./routes/metrics";
import { createMetrics, type Metrics } from "./metrics";
import { createReachability } from "./upstream/reachable";
import { createDefence } from "./defence/defence";
import { createFormSessions } from "./defence/form-session";
import { formSessionRoutes } from "./routes/form-sessions";
import { paymentTokenRoutes } from "./routes/payment-tokens";
import { subscriptionRoutes } from "./routes/subscriptions";
import { widgetRoutes } from "./routes/widget";
import type { Counters, Store } from "./store";
import type { UpstreamClient } from "./upstream/client";

/** The longest X-Request-Id taken from a request. */
export const REQUEST_ID_MAX = 128;

export interface AppDeps {
  config: ProxyConfig;
  logger: Logger;
  /** Everything the proxy keeps (proxy/store: SQLite or PostgreSQL). */
  store: Store;
  /** Key of the body fingerprint HMAC (resolveSigningSecret). */
  signingSecret: string;
  upstream: UpstreamClient;
  /** Made from config.rateLimits when not given. */
  rateLimits?: RateLimits;
  /** The counters the defence and the funnel's marks use (proxyCounters); made when not given. */
  counters?: Counters;
  /** The vital signs GET /metrics shows; a fresh set when not given. */
  metrics?: Metrics;
  /** Set `draining` when the proxy is asked to stop: readiness answers 503 from then on. */
  lifecycle?: Lifecycle;
}

/**
 * Builds the proxy's Hono app, in four steps read top to bottom: the parts the routes share (limits,
 * the defence, the campaign's public reads), the guards every request passes in order, the routes,
 * and the answers to what no route answers.
 *
 * @example
 * const config = loadConfig(process.env);
 * const store = await openStore(config);
 * const app = createApp({ config, logger: createLogger("info"), store,
 *   signingSecret: resolveSigningSecret(config.dataDir, config.signingSecret),
 *   upstream: createUpstreamClient(config.upstream) });
 * const res = await app.request("/v1/health"); // 200 {"status":"ok","store":"sqlite"}
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const metrics = deps.metrics ?? createMetrics();
  const lifecycle = deps.lifecycle ?? { draining: false };
  const parts: AppParts = {
    ...deps,
    metrics,
    lifecycle,
    campaigns: createCampaignDirectory(deps.config.campaigns),
    ...guardParts(deps, metrics),
    ...campaignReads(deps, metrics, lifecycle),
  };
  const app = new Hono<AppEnv>();
  useGuards(app, parts);
  mountRoutes(app, parts);
  answerTheRest(app);
  return app;
}

/** What the routes share, made once per app. */
type AppParts = AppDeps &
  ReturnType<typeof guardParts> &
  ReturnType<typeof campaignReads> & {
    metrics: Metrics;
    lifecycle: Lifecycle;
    campaigns: CampaignDirectory;
  };

/** The client's limits, the card frame's sessions and the card-testing defence, over one set of counters. */
function guardParts({ config, store, logger, signingSecret, ...deps }: AppDeps, metrics: Metrics) {
  const rateLimits = deps.rateLimits ?? createRateLimits(config.rateLimits, store.counters);
  // One set of counters for the defence's parts: with SQLite, this process's memory, its breakers'
  // and allowances' notes in the store, where the command line sees them.
  const counters = deps.counters ?? proxyCounters(store);
  // Defence mode and breakers opening, told on the nonprofit's own webhooks (alert.*).
  const alerts = createAlerts({ store, endpoints: config.webhooks, logger });
  const formSessions = createFormSessions(config.defence, { secret: signingSecret, counters });
  const defence = createDefence(config.defence, {
    store,
    counters,
    logger,
    secret: signingSecret,
    clientDeclines: (ip) => rateLimits.declinesOf(ip),
    declineLimit: config.rateLimits.declineLimit,
    declineWindowS: config.rateLimits.declineBlockS,
    onSessionDecline: (session) => formSessions.recordDecline(session),
    onBreakerOpen: (kind, opened) => {
      metrics.breakerOpens.inc({ scope: kind });
      // A client's breaker is told as "a client": never its address.
      const scope = kind === "client" ? "client" : opened.scope.replace(/^campaign:/, "");
      void alerts.tell("alert.breaker_open", {
        summary: `A circuit breaker opened (${kind === "client" ? "one client" : scope}) on ${opened.why}: its cards wait ${opened.openS} s. Let a venue through from the dashboard if donors share that network.`,
        scope,
        reason: opened.why,
        count: opened.figure,
        since: new Date(opened.openedAt).toISOString(),
      });
    },
    onDefenceMode: (scope, signal, value) =>
      void alerts.tell("alert.defence_mode", {
        summary: `Defence mode started for ${scope === "all" ? "every campaign" : scope} (${signal} at ${value}): cards are challenged.`,
        scope,
        reason: signal,
        count: value,
        since: new Date().toISOString(),
      }),
  });
  return { rateLimits, counters, formSessions, defence };
}

/** A campaign's public reads (proxy/campaign/): its peers, its progress, gala night's feed and its live hub. */
function campaignReads({ config, store, logger, upstream }: AppDeps, metrics: Metrics, lifecycle: Lifecycle) {
  const peers = createPeersCache(
    upstream,
    config.peersCacheS,
    Date.now,
    (campaign, error) =>
      logger.warn(
        { campaign: `${campaign.shortcode}/${campaign.keyword}`, error: errorSummary(error) },
        "campaign peers: reading the fundraisers and teams failed; searching the last list",
      ),
    // Proxies on one PostgreSQL read each campaign's lists once an interval between them.
    store.kind === "postgres" ? { store, owner: `peers-${randomUUID()}` } : undefined,
  );
  const progress = createProgressCache({
    upstream,
    store,
    metrics,
    ttlS: config.progressCacheS,
    draining: () => lifecycle.draining,
    onStale: (campaign, error) =>
      logger.warn(
        { campaign: `${campaign.shortcode}/${campaign.keyword}`, error: errorSummary(error) },
        "campaign progress: the upstream report failed; serving the last good value",
      ),
  });
  const feed = createGalaFeed({ progress, peers });
  const live = createLiveHub({ progress: feed, draining: () => lifecycle.draining });
  return { peers, progress, feed, live };
}

/** What every request passes, in this order, before any route. */
function useGuards(app: Hono<AppEnv>, { config, logger, metrics }: AppParts): void {
  // An X-Request-Id from the reverse proxy is taken when it is short and plain (\w, -, =), so its
  // logs and ours join; otherwise the proxy makes one. Either is on every log line, and answered
  // (not with a script or stylesheet sent: proxy/middleware/request-context.ts).
  app.use(
    "*",
    requestId({ headerName: "X-Request-Id", limitLength: REQUEST_ID_MAX, generator: newRequestId }),
  );
  app.use(
    "*",
    requestContext({
      logger,
      trustProxy: config.trustProxy,
      onAddressProblem: (problem) => metrics.clientAddressProblems.inc({ problem }),
    }),
  );
  // Counts every answer, and what donors got (count-outcomes.ts), once the request is answered.
  app.use("*", httpMetrics(metrics, config.webhooks.length > 0));
  app.use("*", securityHeaders());
  app.use("/v1/*", cors(config.allowedOrigins));
  // A known path asked with another method: 405 with Allow, from the routes themselves.
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (_c, methods) =>
        problemResponse(
          new ProblemError("method_not_allowed", `Use ${methods.join(" or ")}.`, undefined, {
            Allow: methods.join(", "),
          }),
        ),
    }),
  );
}

/** Every route, each handed only what it uses: health and metrics, a campaign's reads, then what moves money. */
function mountRoutes(app: Hono<AppEnv>, parts: AppParts): void {
  const { config, store, upstream, metrics, lifecycle, campaigns, rateLimits, formSessions, defence } = parts;
  const { peers, progress, feed, live } = parts;
  const { logger, signingSecret, counters } = parts;
  // The dashboard's defence and health counts, and the donor-facing upstream calls they time.
  const ops = createOpsCounter({ store, logger });
  // The form's steps the proxy saw happen (a gift sent, a thank-you, a stop), never a beacon's word.
  const formOutcomes = createFormOutcomes({ store, counters, channelsCap: config.dashboard.channels });
  const countedUpstream = countUpstream(upstream, ops);
  const forms = createSavedFormReader({ store });
  app.route(
    "/",
    healthRoutes({
      store,
      lifecycle,
      upstreamReachable: createReachability(config.upstream.baseUrl, config.upstream.connectTimeoutMs),
    }),
  );
  app.route("/", metricsRoutes({ metrics, token: config.metricsToken }));
  app.route(
    "/",
    campaignRoutes({
      campaigns,
      peers,
      progress,
      progressCacheS: config.progressCacheS,
      allowedOrigins: config.allowedOrigins,
      forms,
    }),
  );
  app.route("/", wallRoutes({ campaigns, feed, live }));
  app.route(
    "/",
    displayRoutes({ campaigns, displays: loadDisplays(config.campaignsPath), widgetDir: config.widgetDir }),
  );
  app.route(
    "/",
    dashboardRoutes({
      access: createDashboardAccess({ secret: signingSecret, store }),
      logger,
      pages: dashboardPages({
        store,
        counters,
        campaigns,
        feed,
        widgetDir: config.widgetDir,
        liveS: config.dashboard.liveS,
        draining: () => lifecycle.draining,
        venue: { defence, notes: store.sharedNotes, counters, logger },
      }).route(
        "/forms",
        designerRoutes({
          store,
          forms,
          campaigns,
          allowedOrigins: config.allowedOrigins,
          widgetDir: config.widgetDir,
        }),
      ),
    }),
  );
  app.route(
    "/",
    formSessionRoutes({ formSessions, rateLimits, campaigns, allowedOrigins: config.allowedOrigins }),
  );
  app.route(
    "/",
    formEventRoutes({
      store,
      counters,
      formSessions,
      campaigns,
      config: config.dashboard,
      secret: signingSecret,
      outcomes: formOutcomes,
    }),
  );
  app.route(
    "/",
    paymentTokenRoutes({
      upstream: countedUpstream,
      ops,
      rateLimits,
      formSessions,
      defence,
      campaigns,
      secret: signingSecret,
      formOutcomes,
    }),
  );
  app.route(
    "/",
    donationRoutes({
      campaigns,
      upstream: countedUpstream,
      ops,
      store,
      signingSecret: signingSecret,
      // A donation's card is admitted by the defence, and each decline is counted by both the
      // client's limits and the defence (donations/attempt.ts says so where it happens).
      rateLimits,
      progress,
      defence,
      webhooks: config.webhooks,
      formOutcomes,
    }),
  );
  app.route(
    "/",
    subscriptionRoutes({
      campaigns,
      upstream: countedUpstream,
      store,
      rateLimits,
      webhooks: config.webhooks,
      onListMissing: (list) => metrics.optInListMissing.inc({ list }),
    }),
  );
  app.route(
    "/",
    widgetRoutes({
      widgetDir: config.widgetDir,
      allowedOrigins: config.allowedOrigins,
      challengeScriptUrl: config.defence.turnstile?.scriptUrl ?? null,
    }),
  );
}

/** A path no route knows is a 404 problem; a thrown problem is answered as itself, anything else as a 500. */
function answerTheRest(app: Hono<AppEnv>): void {
  app.notFound(() => problemResponse(new ProblemError("not_found", "There is nothing at this address.")));
  app.onError((error, c) => {
    const problem = problemOf(error);
    if (problem) {
      c.set("logFields", { ...c.get("logFields"), code: problem.code });
      return problemResponse(problem);
    }
    c.set("logFields", { ...c.get("logFields"), code: "internal_error", error: errorSummary(error) });
    return problemResponse(new ProblemError("internal_error", PROBLEM_KINDS.internal_error.title));
  });
}

/** An unexpected error for the log: its name and message, which never hold request data. */
function errorSummary(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 500) : "non-error thrown";
}
