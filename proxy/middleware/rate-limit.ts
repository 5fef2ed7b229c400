/**
 * Per-client limits: a token bucket per action (a burst at once, then a steady refill), so a
 * room of people behind one address gives at its own pace while a burst from one client is held;
 * and each client's declines, which the defence (proxy/defence/scrutiny.ts) turns into a
 * challenge whose cost rises with them: an address is never blocked, because a gala's guests
 * share one with whoever sends dead cards from the venue's Wi-Fi.
 * The counts are the store's counters (proxy/store/counters.ts): on PostgreSQL shared by every
 * proxy; with SQLite, one proxy, in this process's memory.
 */
import { rateLimitKey } from "../client-ip";
import type { BucketConfig, RateLimitConfig } from "../config";
import { ProblemError } from "../problem";
import { memoryCounters } from "../store/counters";
import type { BucketState, CounterHit, CounterState, Counters } from "../store";

export type LimitedAction =
  | "paymentTokens"
  | "cardRequests"
  | "donations"
  | "subscriptions"
  | "donationStatus"
  | "formSessions";

/** Each action's bucket prefix (the keys are `bucket:prefix:client`). */
const PREFIXES: Record<LimitedAction, string> = {
  paymentTokens: "tokens",
  cardRequests: "card-requests",
  donations: "donations",
  subscriptions: "subscriptions",
  donationStatus: "donation-status",
  formSessions: "form-sessions",
};

const MINUTE_MS = 60_000;

/** Whole seconds until a counter starts again, or a bucket has a turn, at least 1: a Retry-After. */
export function retryAfterS(state: CounterState | BucketState, now = Date.now()): string {
  const at = "resetAt" in state ? state.resetAt : state.retryAt;
  return String(Math.max(1, Math.ceil((at - now) / 1000)));
}

/** What a client refused by a limit is told: the truth, and when to come back. */
export function rateLimited(retryAfter: string): ProblemError {
  return new ProblemError(
    "rate_limited",
    "Too many gifts from this network right now. Try again in a minute.",
    undefined,
    { "Retry-After": retryAfter },
  );
}

/**
 * @example
 * const limits = createRateLimits(config.rateLimits, store.counters);
 * await limits.consume("donations", ip); // throws ProblemError rate_limited (429, Retry-After) when over
 */
export function createRateLimits(config: RateLimitConfig, counters: Counters | null = null) {
  const count = counters ?? memoryCounters();
  const buckets: Record<LimitedAction, BucketConfig> = {
    ...config,
    // Every card request, before any check: twice the tokenizations' bucket (a challenged donor
    // sends the card twice), so a flood is shed before it costs the store anything.
    cardRequests: { burst: config.paymentTokens.burst * 2, perMin: config.paymentTokens.perMin * 2 },
  };
  const bucket = (action: LimitedAction, ip: string) => {
    const { burst, perMin } = buckets[action];
    return { key: `bucket:${PREFIXES[action]}:${rateLimitKey(ip)}`, burst, intervalMs: MINUTE_MS / perMin };
  };
  const windowed =
    (prefix: string) =>
    (ip: string, points: number, ttlS = config.declineWindowS): CounterHit => ({
      key: `${prefix}:${rateLimitKey(ip)}`,
      points,
      ttlMs: ttlS * 1000,
    });
  const declines = windowed("declines");
  const inFlight = windowed("in-flight-donations");
  const successes = windowed("successes");

  async function take(action: LimitedAction, ip: string): Promise<void> {
    const turn = await count.take(bucket(action, ip));
    if (!turn.allowed) throw rateLimited(retryAfterS(turn));
  }

  return {
    /** Takes a turn from the client's bucket; none left: 429 rate_limited with Retry-After. */
    consume: take,
    /** Takes a turn from the client's bucket (as consume). */
    admit: take,
    /**
     * A donation about to go upstream: at most the donations bucket's burst of one client's at the
     * upstream at once; and while the client's settled donations are mostly declined, not when its
     * declines and those still at the upstream would reach the decline limit (a burst's refills wait
     * for its first wave to be counted; a room, whose gifts mostly go through, never meets this).
     * Gives back the function that frees the place, once the outcome (and a decline) is recorded.
     */
    async enterDonation(ip: string, proven = false): Promise<() => Promise<void>> {
      const [present, declined, succeeded] = (
        await count.add([inFlight(ip, 1, config.inFlightTtlS), declines(ip, 0), successes(ip, 0)])
      ).map((state) => Math.max(0, state.points));
      const leave = async () => {
        await count.add([inFlight(ip, -1, config.inFlightTtlS)]).catch(() => undefined);
      };
      const mostlyDeclined = declined! > 0 && declined! / (declined! + succeeded!) >= config.declineRatio;
      const others = present! - 1;
      // A card proven by a challenge paid for its turn: a crowd behind a griefer's address gives.
      if (
        present! > config.donations.burst ||
        (!proven && mostlyDeclined && declined! + others >= config.declineLimit)
      ) {
        await leave();
        throw rateLimited("2");
      }
      return leave;
    },
    /** Counts a donation that went through: what a client's declines are weighed against. */
    async recordSuccess(ip: string): Promise<void> {
      await count.add([successes(ip, 1)]);
    },
    /**
     * A card tokenization about to reach the upstream: a turn from the client's bucket (only what
     * would reach the upstream takes one: a request refused as a bot's, or asked for a challenge,
     * does not).
     */
    async admitTokenization(ip: string): Promise<void> {
      await take("paymentTokens", ip);
    },
    /** Counts a declined donation against its client (the defence counts it too: donations/attempt.ts). */
    async recordDecline(ip: string): Promise<void> {
      await count.add([declines(ip, 1)]);
    },
    /** The client's declines in the decline window: evidence the defence weighs. */
    async declinesOf(ip: string): Promise<number> {
      const [declined] = await count.add([declines(ip, 0)]);
      return Math.max(0, declined!.points);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
