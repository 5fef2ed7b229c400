/**
 * The proxy's vital signs as Prometheus text (GET /metrics): what donors got, how the upstream
 * and the store answer, what waits for reconciliation, who was refused. One registry per proxy
 * (tests run several in one process). Labels are bounded: states, error codes, operation names,
 * and the defence scopes of served campaigns; never an address, a card or an amount.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { activeDefences, ALL_SCOPE } from "./defence/defence-mode";
import type { Store } from "./store";
import type { UpstreamClient } from "./upstream/client";

/** Seconds: an upstream call is tens of milliseconds, a slow one up to UPSTREAM_TIMEOUT_MS. */
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];
/** Seconds: a store call is a millisecond or so, a group commit or a busy database more. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

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
  /** Campaign progress reads (proxy/progress.ts): full or changes only, ok or failed. */
  progressReads: Counter<"kind" | "result">;
  /** Read from the store at each scrape. */
  unknownAttempts: Gauge;
  defenceMode: Gauge<"scope">;
  /** Reads what the store knows (unknown attempts, defence mode); set once the store is open. */
  watchStore(store: Store): void;
}

/**
 * @example
 * const metrics = createMetrics();
 * metrics.donations.inc({ outcome: "succeeded" });
 * const text = await metrics.registry.metrics();
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  let watched: Store | undefined;
  const registers = [registry];
  const metrics: Metrics = {
    registry,
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
    rateLimitRefusals: new Counter({
      name: "givekit_rate_limit_refusals_total",
      help: "Requests refused by a per-client limit, a decline block or the defence throttle.",
      labelNames: ["route", "code"],
      registers,
    }),
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
    progressReads: new Counter({
      name: "givekit_progress_reads_total",
      help: "Campaign progress reads of the transactions report, by kind (full, changes) and result (ok, failed: the last figures were served meanwhile).",
      labelNames: ["kind", "result"],
      registers,
    }),
    unknownAttempts: new Gauge({
      name: "givekit_unknown_attempts",
      help: "Donation attempts whose outcome is unknown, awaiting reconciliation from the transactions report.",
      registers,
      async collect() {
        if (!watched) return;
        this.set((await watched.listAttempts({ state: "unknown" })).length);
      },
    }),
    defenceMode: new Gauge({
      name: "givekit_defence_mode",
      help: 'Defence mode per scope (1: on), as every proxy on the store sees it; scope "all" or a campaign.',
      labelNames: ["scope"],
      registers,
      async collect() {
        if (!watched) return;
        const states = await watched.defenceStates();
        const on = new Set(activeDefences(states).map((state) => state.scope));
        this.reset();
        this.set({ scope: ALL_SCOPE }, on.has(ALL_SCOPE) ? 1 : 0);
        for (const state of states) this.set({ scope: state.scope }, on.has(state.scope) ? 1 : 0);
      },
    }),
    watchStore(store) {
      watched = store;
    },
  };
  return metrics;
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
      // A donate that was sent and got no answer resolves "unknown": an error all the same.
      return operation === "donate"
        ? result.then((outcome) => {
            if ((outcome as { kind?: string }).kind === "unknown")
              metrics.upstreamErrors.inc({ operation, kind: "unknown" });
            return outcome;
          })
        : result;
    };
  });
}
