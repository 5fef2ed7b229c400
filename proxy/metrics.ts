/**
 * The proxy's vital signs as Prometheus text (GET /metrics): what donors got, how the upstream
 * and the store answer, what waits for reconciliation, who was refused. One registry per proxy
 * (tests run several in one process). Labels are bounded: states, error codes, operation names,
 * and the defence scopes of served campaigns; never an address, a card or an amount.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { activeDefences, ALL_SCOPE } from "./defence/defence-mode";
import type { Store } from "./store";
import { StoreUnavailableError } from "./store/errors";
import type { DonateOutcome, UpstreamClient } from "./upstream/client";

/** Seconds: an upstream call is tens of milliseconds, a slow one up to UPSTREAM_TIMEOUT_MS. */
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];
/** Seconds: a store call is a millisecond or so, a group commit or a busy database more. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

/** Seconds: a request to the proxy, from a cached file (sub-millisecond) to a donation's upstream wait. */
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
/** How often the figures read from the store (unknown attempts, defence mode) are refreshed, in ms. */
export const STORE_FIGURES_INTERVAL_MS = 15_000;

/** The upstream client's methods, as the upstream's own operation names. */
const UPSTREAM_OPERATIONS: Record<string, string> = {
  login: "login_with_auth_token",
  createPaymentToken: "create_payment_token",
  donate: "donate",
  subscribe: "subscribe",
  fundraisers: "fundraisers",
  teams: "teams",
  transactions: "transactions_report",
  eachTransaction: "transactions_report",
  readTransactions: "transactions_report",
  eachFundraiser: "fundraisers",
  eachTeam: "teams",
};

export interface Metrics {
  registry: Registry;
  donations: Counter<"outcome">;
  tokenizations: Counter<"outcome">;
  rateLimitRefusals: Counter<"route" | "code">;
  upstreamSeconds: Histogram<"operation">;
  upstreamErrors: Counter<"operation" | "kind">;
  storeSeconds: Histogram<"operation">;
  /** Campaign progress reads (proxy/campaign/progress.ts): full or changes only, ok or failed. */
  progressReads: Counter<"kind" | "result">;
  /** Read from the store in the background (never during a scrape): the last value it gave. */
  unknownAttempts: Gauge;
  defenceMode: Gauge<"scope">;
  /** Requests answered, by route pattern (bounded), method and status class. */
  httpRequests: Counter<"route" | "method" | "status">;
  httpSeconds: Histogram<"route" | "method">;
  /** SMS opt-ins answered, by outcome (subscribed, or the refusal's code). */
  optIns: Counter<"outcome">;
  /** Opt-ins the upstream refused with 404 for their list: a list of the campaigns file the account lacks. */
  optInListMissing: Counter<"list">;
  /** Store calls that failed, by operation and kind (unavailable: the database out of reach; error: anything else). */
  storeErrors: Counter<"operation" | "kind">;
  /** Reconciler passes by result (ok, failed), and the attempts they settled by state. */
  reconcilePasses: Counter<"result">;
  reconcileSettled: Counter<"state">;
  /** Webhook tries by outcome: delivered, failed, refused, given_up, lease_lost (proxy/webhooks). */
  webhookDeliveries: Counter<"outcome">;
  /** The oldest webhook event not yet delivered, its age in seconds (0: none waits; read every 15 s). */
  webhookOldestAge: Gauge;
  /** Requests whose client address could not be trusted (client-ip.ts): untrusted_forwarder, missing_forwarded_for. */
  clientAddressProblems: Counter<"problem">;
  /** Bot-filter refusals by reason, for the defence to count. */
  botRefusals: Counter<"reason">;
  /** Circuit breakers opened on cards reaching the network (defence/breaker.ts), by scope kind. */
  breakerOpens: Counter<"scope">;
  /**
   * Reads what the store knows (unknown attempts, defence mode) now and every
   * STORE_FIGURES_INTERVAL_MS, so a scrape answers from memory; returns the stop.
   */
  watchStore(store: Store): () => void;
  /** Something the store's figures count may have changed (a donation answered): read them again soon. */
  storeChanged(): void;
}

/**
 * The registry and every metric, made in steps: the build's line, what donors got, the requests,
 * the upstream and the store timed, the background work's (progress, reconciler, webhooks, the
 * store's figures), and the store's figures read in the background.
 *
 * @example
 * const metrics = createMetrics();
 * metrics.donations.inc({ outcome: "succeeded" });
 * const text = await metrics.registry.metrics();
 */
export function createMetrics(build: { version: string } = { version: "unknown" }): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // process_* and nodejs_* (CPU, memory, event loop lag, handles), as on-call expects them.
  collectDefaultMetrics({ register: registry });
  countBuild(registers, build.version);
  const storeFigures = storeFigureReader();
  return {
    registry,
    ...donorMetrics(registers),
    ...requestMetrics(registers),
    ...dependencyMetrics(registers),
    ...backgroundMetrics(registers, storeFigures.figures),
    watchStore: storeFigures.watch,
    storeChanged: storeFigures.changed,
  };
}

type Registers = Registry[];

/** givekit_build_info: the running version and Node.js, always 1. */
function countBuild(registers: Registers, version: string): void {
  new Gauge({
    name: "givekit_build_info",
    help: "The running givekit version and Node.js (always 1).",
    labelNames: ["version", "node"],
    registers,
  }).set({ version, node: process.version }, 1);
}

/** What donors and opt-ins got, and who was refused before anything was asked. */
function donorMetrics(registers: Registers) {
  return {
    donations: new Counter({
      name: "givekit_donations_total",
      help: "Donation requests answered, by outcome (an attempt's state, replayed, or the refusal's code).",
      labelNames: ["outcome"],
      registers,
    }),
    tokenizations: new Counter({
      name: "givekit_tokenizations_total",
      help: "Card tokenizations answered, by outcome (created, filtered, or the refusal's code).",
      labelNames: ["outcome"],
      registers,
    }),
    optIns: new Counter({
      name: "givekit_opt_ins_total",
      help: "SMS opt-ins answered, by outcome (subscribed, or the refusal's code).",
      labelNames: ["outcome"],
      registers,
    }),
    optInListMissing: new Counter({
      name: "givekit_optin_list_missing_total",
      help: "SMS opt-ins the upstream refused with 404 for their list, by list: a list in the campaigns file that the account does not have (the lists are the campaigns file's, so the labels are few).",
      labelNames: ["list"],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "givekit_rate_limit_refusals_total",
      help: "Requests refused by a per-client limit or a donor's declines.",
      labelNames: ["route", "code"],
      registers,
    }),
    botRefusals: new Counter({
      name: "givekit_bot_refusals_total",
      help: "Requests refused by a bot filter, by reason.",
      labelNames: ["reason"],
      registers,
    }),
    breakerOpens: new Counter({
      name: "givekit_breaker_opens_total",
      help: "Circuit breakers opened on cards reaching the card network, by scope (client, campaign, bin).",
      labelNames: ["scope"],
      registers,
    }),
    clientAddressProblems: new Counter({
      name: "givekit_client_address_problems_total",
      help: "Requests whose client address is not what GIVEKIT_TRUST_PROXY expects: untrusted_forwarder (X-Forwarded-For from a peer not trusted), missing_forwarded_for (a trusted proxy sent none).",
      labelNames: ["problem"],
      registers,
    }),
  } satisfies Partial<Metrics>;
}

/** Every request answered, by route, method and status class, and how long it took. */
function requestMetrics(registers: Registers) {
  return {
    httpRequests: new Counter({
      name: "givekit_http_requests_total",
      help: "Requests answered, by route (its pattern, or unmatched), method and status class (2xx…5xx).",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    httpSeconds: new Histogram({
      name: "givekit_http_request_duration_seconds",
      help: "How long the proxy took to answer, by route and method.",
      labelNames: ["route", "method"],
      buckets: HTTP_BUCKETS,
      registers,
    }),
  } satisfies Partial<Metrics>;
}

/** The upstream's and the store's calls, timed, and their failures. */
function dependencyMetrics(registers: Registers) {
  return {
    upstreamSeconds: new Histogram({
      name: "givekit_upstream_request_duration_seconds",
      help: "Upstream calls by operation, until their outcome (a report's polling included).",
      labelNames: ["operation"],
      buckets: UPSTREAM_BUCKETS,
      registers,
    }),
    upstreamErrors: new Counter({
      name: "givekit_upstream_errors_total",
      help: "Upstream calls without a usable answer: failed (refused, 5xx, no connection) or unknown (a donate with no answer).",
      labelNames: ["operation", "kind"],
      registers,
    }),
    storeSeconds: new Histogram({
      name: "givekit_store_operation_duration_seconds",
      help: "Store (SQLite or PostgreSQL) calls by operation.",
      labelNames: ["operation"],
      buckets: STORE_BUCKETS,
      registers,
    }),
    storeErrors: new Counter({
      name: "givekit_store_errors_total",
      help: "Store calls that failed, by operation; kind unavailable: the database could not be reached.",
      labelNames: ["operation", "kind"],
      registers,
    }),
  } satisfies Partial<Metrics>;
}

/** What the store's figures were at their last background read; null or undefined before the first. */
interface StoreFigures {
  unknownCount: number | null;
  defenceScopes: { scope: string; on: boolean }[] | null;
  oldestWebhookAt: number | null | undefined;
}

/** The background work's: progress reads, reconciler passes, webhook tries, and the store's figures. */
function backgroundMetrics(registers: Registers, read: Readonly<StoreFigures>) {
  return {
    progressReads: new Counter({
      name: "givekit_progress_reads_total",
      help: "Campaign progress reads of the transactions report, by kind (full, changes) and result (ok, failed: the last figures were served meanwhile).",
      labelNames: ["kind", "result"],
      registers,
    }),
    reconcilePasses: new Counter({
      name: "givekit_reconcile_passes_total",
      help: "Reconciler passes over unknown attempts, by result (ok, failed).",
      labelNames: ["result"],
      registers,
    }),
    reconcileSettled: new Counter({
      name: "givekit_reconcile_settled_total",
      help: "Unknown attempts the reconciler settled, by the state they got.",
      labelNames: ["state"],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "givekit_webhook_deliveries_total",
      help: "Webhook deliveries tried, by outcome: delivered, failed (retried later), refused (a private address), given_up (after 3 days), lease_lost (another proxy took it over).",
      labelNames: ["outcome"],
      registers,
    }),
    unknownAttempts: new Gauge({
      name: "givekit_unknown_attempts",
      help: "Donation attempts whose outcome is unknown, awaiting reconciliation (read from the store every 15 s).",
      registers,
      collect() {
        if (read.unknownCount !== null) this.set(read.unknownCount);
      },
    }),
    defenceMode: new Gauge({
      name: "givekit_defence_mode",
      help: 'Defence mode per scope (1: on), as every proxy on the store sees it; scope "all" or a campaign (read every 15 s).',
      labelNames: ["scope"],
      registers,
      collect() {
        if (read.defenceScopes === null) return;
        this.reset();
        for (const { scope, on } of read.defenceScopes) this.set({ scope }, on ? 1 : 0);
      },
    }),
    webhookOldestAge: new Gauge({
      name: "givekit_webhook_oldest_undelivered_seconds",
      help: "Age of the oldest webhook event not yet delivered nor given up, in seconds; 0 when none waits (read from the store every 15 s).",
      registers,
      collect() {
        if (read.oldestWebhookAt === undefined) return;
        this.set(read.oldestWebhookAt === null ? 0 : Math.max(0, (Date.now() - read.oldestWebhookAt) / 1000));
      },
    }),
  } satisfies Partial<Metrics>;
}

/**
 * The store's figures (unknown attempts, the oldest webhook waiting, defence mode), read now and
 * every STORE_FIGURES_INTERVAL_MS once watched, and again soon after a change, so a scrape
 * answers from memory.
 */
function storeFigureReader() {
  const figures: StoreFigures = { unknownCount: null, defenceScopes: null, oldestWebhookAt: undefined };
  let refreshSoon: (() => void) | undefined;
  function watch(store: Store): () => void {
    let stopped = false;
    const refresh = async () => {
      try {
        figures.unknownCount = (await store.listAttempts({ state: "unknown" })).length;
        figures.oldestWebhookAt = (await store.webhookStats()).oldestPendingAt;
        const states = await store.defenceStates();
        const on = new Set(activeDefences(states).map((state) => state.scope));
        figures.defenceScopes = [
          { scope: ALL_SCOPE, on: on.has(ALL_SCOPE) },
          ...states
            .filter((state) => state.scope !== ALL_SCOPE)
            .map((state) => ({ scope: state.scope, on: on.has(state.scope) })),
        ];
      } catch {
        // The store is away: the last values stay, and givekit_store_errors_total says why.
      }
    };
    // One read at a time; a change asked for meanwhile is read once more after it.
    let running: Promise<void> | null = null;
    let again = false;
    const run = () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = refresh().finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
    };
    refreshSoon = run;
    run();
    const timer = setInterval(run, STORE_FIGURES_INTERVAL_MS);
    timer.unref();
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }
  return { figures, watch, changed: () => refreshSoon?.() };
}

type AnyFunction = (...args: unknown[]) => unknown;

/** Times `run` (sync or async) into `observe`, in seconds; `onError` sees what it threw. */
function timed(
  run: () => unknown,
  observe: (seconds: number) => void,
  onError?: (error: unknown) => void,
): unknown {
  const started = performance.now();
  const done = () => observe((performance.now() - started) / 1000);
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    done();
    onError?.(error);
    throw error;
  }
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => (done(), value),
      (error: unknown) => {
        done();
        onError?.(error);
        throw error;
      },
    );
  }
  done();
  return result;
}

/** Every method of `target` timed by name (`prefix` + name); other properties as they are. */
function wrapMethods<T extends object>(
  target: T,
  wrap: (name: string, method: AnyFunction) => AnyFunction,
): T {
  const wrapped: Record<string, unknown> = {};
  for (const name of Object.keys(target)) {
    const value = (target as Record<string, unknown>)[name];
    wrapped[name] = typeof value === "function" ? wrap(name, (value as AnyFunction).bind(target)) : value;
  }
  return wrapped as T;
}

/** The store with every call timed into givekit_store_operation_duration_seconds. */
export function instrumentStore(store: Store, metrics: Metrics): Store {
  const time = (operation: string, method: AnyFunction) => {
    const histogram = metrics.storeSeconds.labels(operation);
    return (...args: unknown[]) =>
      timed(
        () => method(...args),
        (seconds) => histogram.observe(seconds),
        (error) =>
          metrics.storeErrors.inc({
            operation,
            kind: error instanceof StoreUnavailableError ? "unavailable" : "error",
          }),
      );
  };
  const instrumented = wrapMethods(store, time);
  const counters = store.counters;
  return {
    ...instrumented,
    // `kind` and `counters` as values: the counters' calls timed under "counters.NAME".
    kind: store.kind,
    counters: counters ? wrapMethods(counters, (name, method) => time(`counters.${name}`, method)) : null,
  };
}

/** The upstream client with every call timed, and its failures counted, by operation. */
export function instrumentUpstream(upstream: UpstreamClient, metrics: Metrics): UpstreamClient {
  return wrapMethods(upstream, (name, method) => {
    const operation = UPSTREAM_OPERATIONS[name];
    if (!operation) return method;
    const histogram = metrics.upstreamSeconds.labels(operation);
    return (...args: unknown[]) => {
      const result = timed(
        () => method(...args),
        (seconds) => histogram.observe(seconds),
        () => metrics.upstreamErrors.inc({ operation, kind: "failed" }),
      ) as Promise<unknown>;
      // A donate resolves whatever happened: one never sent failed, one sent without an answer is "unknown".
      return operation === "donate"
        ? result.then((outcome) => {
            const { kind } = outcome as DonateOutcome;
            if (kind === "not_sent") metrics.upstreamErrors.inc({ operation, kind: "failed" });
            if (kind === "unknown") metrics.upstreamErrors.inc({ operation, kind: "unknown" });
            return outcome;
          })
        : result;
    };
  });
}
