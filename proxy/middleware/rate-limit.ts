/**
 * Per-client limits: a token bucket per action (a burst at once, then a steady refill), so a
 * room of people behind one address gives at its own pace while a burst from one client is held;
 * and the decline block: a client whose declines are many and a large share of its card
 * tokenizations may not tokenize cards or donate for a while (the usual defence against card
 * testing, which a gala's few declines among many gifts never trip).
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

/** Blocked for declines while the block lasts. */
function assertNotBlockedBy(state: CounterState): void {
  if (state.points === 0 || state.resetAt <= Date.now()) return;
  throw new ProblemError(
    "too_many_declines",
    "Too many declined payments from this address. Try again later.",
    undefined,
    { "Retry-After": retryAfterS(state) },
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
  // The client's card tokenizations over the decline window: what its declines are a share of.
  const tokenizations = windowed("tokenizations");
  const block = windowed("decline-block");

  async function take(action: LimitedAction, ip: string): Promise<void> {
    const turn = await count.take(bucket(action, ip));
    if (!turn.allowed) throw rateLimited(retryAfterS(turn));
  }

  return {
    /** Takes a turn from the client's bucket; none left: 429 rate_limited with Retry-After. */
    consume: take,
    /** Throws 429 too_many_declines while the client is blocked for declines. */
    async assertNotBlocked(ip: string): Promise<void> {
      const [blocked] = await count.add([block(ip, 0)]);
      assertNotBlockedBy(blocked!);
    },
    /**
     * assertNotBlocked and consume side by side: a blocked client is told so (too_many_declines
     * wins over rate_limited).
     */
    async admit(action: LimitedAction, ip: string): Promise<void> {
      const [blocked, turn] = await Promise.allSettled([count.add([block(ip, 0)]), take(action, ip)]);
      if (blocked.status === "rejected") throw blocked.reason;
      assertNotBlockedBy(blocked.value[0]!);
      if (turn.status === "rejected") throw turn.reason;
    },
    /**
     * A donation about to go upstream: at most the donations bucket's burst of one client's at the
     * upstream at once; and while the client's settled donations are mostly declined, not when its
     * declines and those still at the upstream would reach the decline limit (a burst's refills wait
     * for its first wave to be counted; a room, whose gifts mostly go through, never meets this).
     * Gives back the function that frees the place, once the outcome (and a decline) is recorded.
     */
    async enterDonation(ip: string): Promise<() => Promise<void>> {
      const [present, declined, succeeded] = (
        await count.add([inFlight(ip, 1, config.inFlightTtlS), declines(ip, 0), successes(ip, 0)])
      ).map((state) => Math.max(0, state.points));
      const leave = async () => {
        await count.add([inFlight(ip, -1, config.inFlightTtlS)]).catch(() => undefined);
      };
      const mostlyDeclined = declined! > 0 && declined! / (declined! + succeeded!) >= config.declineRatio;
      const others = present! - 1;
      if (
        present! > config.donations.burst ||
        (mostlyDeclined && declined! + others >= config.declineLimit)
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
     * does not), counted toward the client's decline share.
     */
    async admitTokenization(ip: string): Promise<void> {
      await take("paymentTokens", ip);
      // Only what reaches the upstream counts: a tester's refused attempts must not dilute its share.
      await count.add([tokenizations(ip, 1)]);
    },
    /**
     * Counts a declined donation; the block starts when the client's declines reach the limit and
     * are at least declineRatio of its tokenizations. The campaign is for the whole-traffic
     * signals (app.ts adds them); the per-client count is per address.
     */
    async recordDecline(ip: string, _campaign?: string): Promise<void> {
      const [declined, tokenized] = await count.add([declines(ip, 1), tokenizations(ip, 0)]);
      const share = declined!.points / Math.max(tokenized!.points, declined!.points);
      if (declined!.points >= config.declineLimit && share >= config.declineRatio)
        await count.set([block(ip, 1, config.declineBlockS)]);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
