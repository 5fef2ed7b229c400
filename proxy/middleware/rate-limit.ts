/**
 * Per-client limits: so many payment tokens, donations, donation status lookups and
 * subscriptions per window, and the decline block: after too many declined donations, a client
 * may not tokenize cards or donate for a while (the usual defence against card testing).
 * The counts are the store's counters (proxy/store/counters.ts): on PostgreSQL shared by every
 * proxy; with SQLite, one proxy, in this process's memory. A request's checks are one round trip.
 */
import { rateLimitKey } from "../client-ip";
import type { RateLimitConfig } from "../config";
import { ProblemError } from "../problem";
import { memoryCounters } from "../store/counters";
import type { CounterHit, CounterState, Counters } from "../store";

export type LimitedAction = "paymentTokens" | "donations" | "subscriptions" | "donationStatus";

/** Each action's counter prefix (the keys are `prefix:client`). */
const PREFIXES: Record<LimitedAction, string> = {
  paymentTokens: "tokens",
  donations: "donations",
  subscriptions: "subscriptions",
  donationStatus: "donation-status",
};

/** Whole seconds until a counter starts again, at least 1: a Retry-After. */
export function retryAfterS(state: CounterState, now = Date.now()): string {
  return String(Math.max(1, Math.ceil((state.resetAt - now) / 1000)));
}

/**
 * @example
 * const limits = createRateLimits(config.rateLimits, store.counters);
 * await limits.consume("donations", ip); // throws ProblemError rate_limited (429, Retry-After) when over
 */
export function createRateLimits(config: RateLimitConfig, counters: Counters | null = null) {
  const count = counters ?? memoryCounters();
  const budgets: Record<LimitedAction, number> = {
    paymentTokens: config.paymentTokens,
    donations: config.donations,
    subscriptions: config.subscriptions,
    donationStatus: config.donationStatus,
  };
  const hit = (action: LimitedAction, ip: string): CounterHit => ({
    key: `${PREFIXES[action]}:${rateLimitKey(ip)}`,
    points: 1,
    ttlMs: config.windowS * 1000,
  });
  const declines = (ip: string, points: number, ttlS = config.declineWindowS): CounterHit => ({
    key: `declines:${rateLimitKey(ip)}`,
    points,
    ttlMs: ttlS * 1000,
  });

  function assertWithin(action: LimitedAction, state: CounterState): void {
    if (state.points <= budgets[action]) return;
    throw new ProblemError(
      "rate_limited",
      "Too many requests from this address. Try again later.",
      undefined,
      {
        "Retry-After": retryAfterS(state),
      },
    );
  }

  /** Past the decline limit (the block sets the count above it) while the block lasts. */
  function assertNotBlockedBy(state: CounterState): void {
    if (state.points <= config.declineLimit || state.resetAt <= Date.now()) return;
    throw new ProblemError(
      "too_many_declines",
      "Too many declined payments from this address. Try again later.",
      undefined,
      { "Retry-After": retryAfterS(state) },
    );
  }

  return {
    /** Counts one request; over the limit, throws 429 rate_limited with Retry-After. */
    async consume(action: LimitedAction, ip: string): Promise<void> {
      const [state] = await count.add([hit(action, ip)]);
      assertWithin(action, state!);
    },
    /** Throws 429 too_many_declines while the client is blocked for declines. */
    async assertNotBlocked(ip: string): Promise<void> {
      const [state] = await count.add([declines(ip, 0)]);
      assertNotBlockedBy(state!);
    },
    /**
     * assertNotBlocked and consume in one round trip: a blocked client is told so
     * (too_many_declines wins over rate_limited), and its request counts too, which changes
     * nothing while the block (longer than the window by default) lasts.
     */
    async admit(action: LimitedAction, ip: string): Promise<void> {
      const [blocked, counted] = await count.add([declines(ip, 0), hit(action, ip)]);
      assertNotBlockedBy(blocked!);
      assertWithin(action, counted!);
    },
    /**
     * Counts a declined donation; the one that reaches the limit starts the block. The campaign
     * is for the whole-traffic signals (app.ts adds them); the per-client count is per address.
     */
    async recordDecline(ip: string, _campaign?: string): Promise<void> {
      const [state] = await count.add([declines(ip, 1)]);
      if (state!.points >= config.declineLimit)
        await count.set([declines(ip, state!.points + 1, config.declineBlockS)]);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
