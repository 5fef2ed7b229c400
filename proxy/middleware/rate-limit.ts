/**
 * Per-client limits (rate-limiter-flexible): so many payment tokens, donations, donation
 * status lookups and subscriptions per window, and the decline block: after too many declined donations, a
 * client may not tokenize cards or donate for a while (the usual defence against card testing).
 * On PostgreSQL the counters are shared by every proxy (one table); with SQLite, one proxy,
 * they live in memory. If the database is out of reach, each proxy counts in memory meanwhile.
 */
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { rateLimitKey } from "../client-ip";
import type { RateLimitConfig } from "../config";
import { ProblemError } from "../problem";
import type { RateLimitStore } from "../store";

export type LimitedAction = "paymentTokens" | "donations" | "subscriptions" | "donationStatus";

function retryAfterS(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

/**
 * A counter shared by every proxy on the store's PostgreSQL, or this process's own with SQLite
 * (`store` null); in memory meanwhile when the database is out of reach.
 */
export function sharedLimiter(
  store: RateLimitStore | null,
  options: IRateLimiterOptions,
): RateLimiterAbstract {
  return store
    ? new RateLimiterPostgres({
        ...options,
        ...store,
        // The proxy's retention timer deletes expired counters (proxy/store).
        clearExpiredByTimeout: false,
        insuranceLimiter: new RateLimiterMemory(options),
      })
    : new RateLimiterMemory(options);
}

/**
 * @example
 * const limits = createRateLimits(config.rateLimits, store.rateLimitStore);
 * await limits.consume("donations", ip); // throws ProblemError rate_limited (429, Retry-After) when over
 */
export function createRateLimits(config: RateLimitConfig, store: RateLimitStore | null = null) {
  const limiter = (options: IRateLimiterOptions) => sharedLimiter(store, options);
  const limiters: Record<LimitedAction, RateLimiterAbstract> = {
    paymentTokens: limiter({ keyPrefix: "tokens", points: config.paymentTokens, duration: config.windowS }),
    donations: limiter({ keyPrefix: "donations", points: config.donations, duration: config.windowS }),
    subscriptions: limiter({
      keyPrefix: "subscriptions",
      points: config.subscriptions,
      duration: config.windowS,
    }),
    // A Pending screen asks again and again: its lookups never use up the donations' budget.
    donationStatus: limiter({
      keyPrefix: "donation-status",
      points: config.donationStatus,
      duration: config.windowS,
    }),
  };
  const declines = limiter({
    keyPrefix: "declines",
    points: config.declineLimit,
    duration: config.declineWindowS,
  });

  const limits = {
    /** Counts one request; over the limit, throws 429 rate_limited with Retry-After. */
    async consume(action: LimitedAction, ip: string): Promise<void> {
      try {
        await limiters[action].consume(rateLimitKey(ip));
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        throw new ProblemError(
          "rate_limited",
          "Too many requests from this address. Try again later.",
          undefined,
          {
            "Retry-After": retryAfterS(error.msBeforeNext),
          },
        );
      }
    },
    /** Throws 429 too_many_declines while the client is blocked for declines. */
    async assertNotBlocked(ip: string): Promise<void> {
      const state = await declines.get(rateLimitKey(ip));
      if (state && state.consumedPoints > config.declineLimit && state.msBeforeNext > 0) {
        throw new ProblemError(
          "too_many_declines",
          "Too many declined payments from this address. Try again later.",
          undefined,
          { "Retry-After": retryAfterS(state.msBeforeNext) },
        );
      }
    },
    /**
     * assertNotBlocked and consume together, in one round trip's time on a shared store: a
     * blocked client is told so (too_many_declines wins over rate_limited), and a request of a
     * blocked client also counts, which changes nothing while the block (longer than the
     * window by default) lasts.
     */
    async admit(action: LimitedAction, ip: string): Promise<void> {
      const [blocked, counted] = await Promise.allSettled([
        limits.assertNotBlocked(ip),
        limits.consume(action, ip),
      ]);
      if (blocked.status === "rejected") throw blocked.reason;
      if (counted.status === "rejected") throw counted.reason;
    },
    /**
     * Counts a declined donation; the one that reaches the limit starts the block. The campaign
     * is for the whole-traffic signals (app.ts adds them); the per-client count is per address.
     */
    async recordDecline(ip: string, _campaign?: string): Promise<void> {
      const key = rateLimitKey(ip);
      const state = await declines.penalty(key, 1);
      if (state.consumedPoints >= config.declineLimit) await declines.block(key, config.declineBlockS);
    },
  };
  return limits;
}

export type RateLimits = ReturnType<typeof createRateLimits>;
