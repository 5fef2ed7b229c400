/**
 * The per-client limits (proxy/GUIDE.md, "Limits and defences"): a token bucket per route, and
 * the block a client's declined donations start.
 */
import * as z from "zod/mini";
import { MAX_COUNT, MAX_SECONDS, Ratio, whole } from "./values";

/** A per-client token bucket: `burst` requests at once, refilled at `perMin` a minute. */
export interface BucketConfig {
  burst: number;
  perMin: number;
}

/** Per-client limits (proxy/GUIDE.md, "Limits and defences"). */
export interface RateLimitConfig {
  paymentTokens: BucketConfig;
  donations: BucketConfig;
  subscriptions: BucketConfig;
  /** Status lookups (GET /v1/donations/{reference}): a Pending screen polls, so a bucket of its own. */
  donationStatus: BucketConfig;
  /** Card frames' form sessions (POST /v1/form-sessions). */
  formSessions: BucketConfig;
  /** Declined donations per client within declineWindowS that, at declineRatio of its tokenizations or more, start the block. */
  declineLimit: number;
  declineRatio: number;
  declineWindowS: number;
  /** How long a blocked client may not tokenize cards or donate, in seconds. */
  declineBlockS: number;
  /** How long a donation counts as at the upstream if its proxy never says it is done (the claim's lease). */
  inFlightTtlS: number;
}

/** Each variable's default. */
export const RATE_LIMITS_DEFAULTS = {
  GIVEKIT_RATE_PAYMENT_TOKENS: "10",
  GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN: "120",
  GIVEKIT_RATE_DONATIONS: "10",
  GIVEKIT_RATE_DONATIONS_PER_MIN: "120",
  GIVEKIT_RATE_SUBSCRIPTIONS: "10",
  GIVEKIT_RATE_SUBSCRIPTIONS_PER_MIN: "120",
  GIVEKIT_RATE_DONATION_STATUS: "120",
  GIVEKIT_RATE_DONATION_STATUS_PER_MIN: "600",
  GIVEKIT_RATE_FORM_SESSIONS: "60",
  GIVEKIT_RATE_FORM_SESSIONS_PER_MIN: "240",
  GIVEKIT_DECLINE_LIMIT: "5",
  GIVEKIT_DECLINE_RATIO: "0.5",
  GIVEKIT_DECLINE_WINDOW_S: "600",
  GIVEKIT_DECLINE_BLOCK_S: "3600",
} as const;

export const RateLimitsVariablesSchema = z.object({
  GIVEKIT_RATE_PAYMENT_TOKENS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_RATE_DONATIONS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_DONATIONS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_RATE_SUBSCRIPTIONS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_SUBSCRIPTIONS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_RATE_DONATION_STATUS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_DONATION_STATUS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_RATE_FORM_SESSIONS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_FORM_SESSIONS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_DECLINE_LIMIT: whole(1, MAX_COUNT),
  GIVEKIT_DECLINE_RATIO: Ratio,
  GIVEKIT_DECLINE_WINDOW_S: whole(1, MAX_SECONDS),
  GIVEKIT_DECLINE_BLOCK_S: whole(1, MAX_SECONDS),
});
export type RateLimitsVariables = z.output<typeof RateLimitsVariablesSchema>;

/** `claimLeaseS`: a donation counts as at the upstream for as long as its claim holds (config/store.ts). */
export function rateLimitsConfig(
  e: RateLimitsVariables,
  claimLeaseS: number,
): { rateLimits: RateLimitConfig } {
  return {
    rateLimits: {
      paymentTokens: { burst: e.GIVEKIT_RATE_PAYMENT_TOKENS, perMin: e.GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN },
      donations: { burst: e.GIVEKIT_RATE_DONATIONS, perMin: e.GIVEKIT_RATE_DONATIONS_PER_MIN },
      subscriptions: { burst: e.GIVEKIT_RATE_SUBSCRIPTIONS, perMin: e.GIVEKIT_RATE_SUBSCRIPTIONS_PER_MIN },
      donationStatus: {
        burst: e.GIVEKIT_RATE_DONATION_STATUS,
        perMin: e.GIVEKIT_RATE_DONATION_STATUS_PER_MIN,
      },
      formSessions: { burst: e.GIVEKIT_RATE_FORM_SESSIONS, perMin: e.GIVEKIT_RATE_FORM_SESSIONS_PER_MIN },
      declineLimit: e.GIVEKIT_DECLINE_LIMIT,
      declineRatio: e.GIVEKIT_DECLINE_RATIO,
      declineWindowS: e.GIVEKIT_DECLINE_WINDOW_S,
      declineBlockS: e.GIVEKIT_DECLINE_BLOCK_S,
      inFlightTtlS: claimLeaseS,
    },
  };
}
