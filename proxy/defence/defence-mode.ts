/**
 * Whole-traffic signals and defence mode against card testing from many addresses. The counters
 * are rate-limiter-flexible's (shared by every proxy on PostgreSQL, in memory with SQLite):
 * card tokenizations and declines per minute, declines over tokenizations in a sliding window,
 * and distinct cards per minute, each card known only by an HMAC of its number under the
 * journal secret. When one crosses its threshold, defence mode starts for every proxy; it ends
 * `quietS` after the last crossing. In defence mode a new tokenization needs a Turnstile proof
 * when one is configured, or else takes its turn in a small global budget per minute.
 */
import { createHmac } from "node:crypto";
import type { Logger } from "pino";
import { RateLimiterRes, type IRateLimiterOptions } from "rate-limiter-flexible";
import type { DefenceConfig } from "../config";
import { sharedLimiter } from "../middleware/rate-limit";
import { ProblemError } from "../problem";
import type { RateLimitStore } from "../store";
import { createTurnstileVerifier, type ChallengeVerifier } from "./turnstile";

/** Far above any threshold: the signal counters count, they never refuse. */
const UNLIMITED = 1_000_000_000;
const ALL = "all";
const MINUTE_S = 60;

export type DefenceSignal = "tokens_per_min" | "declines_per_min" | "cards_per_min" | "decline_ratio";

/**
 * @example
 * const defence = createDefence(config.defence, { store: store.rateLimitStore, secret, logger });
 * await defence.admitTokenization(ip, body.challenge_token); // 403 challenge_required in defence mode
 * await defence.recordTokenization(digits);
 */
export function createDefence(
  config: DefenceConfig,
  deps: { store: RateLimitStore | null; secret: string; logger: Logger; verifier?: ChallengeVerifier },
) {
  const limiter = (options: IRateLimiterOptions) => sharedLimiter(deps.store, options);
  const counter = (keyPrefix: string, duration: number) =>
    limiter({ keyPrefix, points: UNLIMITED, duration });
  const tokensMin = counter("sig-tokens-min", MINUTE_S);
  const declinesMin = counter("sig-declines-min", MINUTE_S);
  const tokensWindow = counter("sig-tokens-win", config.windowS);
  const declinesWindow = counter("sig-declines-win", config.windowS);
  const cardSeen = counter("sig-card", MINUTE_S);
  const cardsMin = counter("sig-cards-min", MINUTE_S);
  const mode = counter("defence-mode", config.quietS);
  const throttle = limiter({
    keyPrefix: "defence-throttle",
    points: config.throttlePerMin,
    duration: MINUTE_S,
  });
  const verifier =
    deps.verifier ??
    (config.turnstile
      ? createTurnstileVerifier({
          secret: config.turnstile.secret,
          verifyUrl: config.turnstile.verifyUrl,
          timeoutMs: config.turnstile.timeoutMs,
        })
      : null);
  /** What this proxy last saw, for the one log line at each change. */
  let seenActive = false;

  async function isActive(): Promise<boolean> {
    const state = await mode.get(ALL);
    const active = state !== null && state.msBeforeNext > 0;
    if (seenActive && !active)
      deps.logger.info({ event: "defence_mode_off" }, "defence mode ended: quiet period over");
    seenActive = active;
    return active;
  }

  /** A signal over its threshold: starts defence mode, or keeps it on for another quiet period. */
  async function cross(signal: DefenceSignal, value: number): Promise<void> {
    // One atomic count per crossing: the proxy whose count is the first of a period logs the entry.
    const state = await mode.penalty(ALL, 1);
    if (state.consumedPoints === 1) {
      deps.logger.warn(
        { event: "defence_mode_on", signal, value, challenge: verifier ? "turnstile" : "throttle" },
        "defence mode started: card testing suspected",
      );
    } else {
      // Another crossing: the quiet period starts again from now.
      await mode.set(ALL, state.consumedPoints, config.quietS);
    }
    seenActive = true;
  }

  async function throttled(): Promise<void> {
    try {
      await throttle.consume(ALL);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw new ProblemError(
        "rate_limited",
        "Too many card payments right now. Try again in a minute.",
        undefined,
        {
          "Retry-After": String(Math.max(1, Math.ceil(error.msBeforeNext / 1000))),
        },
      );
    }
  }

  return {
    /** Whether defence mode is on for all proxies. */
    isActive,
    /**
     * Before a tokenization: outside defence mode, nothing. In it, a valid Turnstile proof
     * (403 challenge_required without one, challenge_failed for a bad one), or, without a
     * challenge or with its verify endpoint down (fail closed), a turn in the global budget.
     */
    async admitTokenization(ip: string, proof: string | undefined): Promise<void> {
      if (!(await isActive())) return;
      if (!verifier) return throttled();
      if (!proof) {
        throw new ProblemError("challenge_required", "Confirm you are a person, then try again.");
      }
      const verdict = await verifier.verify(proof, ip);
      if (verdict.kind === "passed") return;
      if (verdict.kind === "failed") {
        throw new ProblemError(
          "challenge_failed",
          "The check that you are a person did not pass. Try again.",
        );
      }
      deps.logger.warn(
        { event: "challenge_unavailable", reason: verdict.reason, fallback: "throttle" },
        "challenge verify endpoint unavailable: failing closed (throttled)",
      );
      return throttled();
    },
    /** Counts a tokenization about to reach the upstream: the card only as an HMAC. */
    async recordTokenization(digits: string): Promise<void> {
      const hash = createHmac("sha256", deps.secret).update(`card:${digits}`).digest("hex");
      const [perMin, seen] = await Promise.all([tokensMin.penalty(ALL, 1), cardSeen.penalty(hash, 1)]);
      await tokensWindow.penalty(ALL, 1);
      const cards = seen.consumedPoints === 1 ? (await cardsMin.penalty(ALL, 1)).consumedPoints : 0;
      if (perMin.consumedPoints >= config.tokensPerMin) await cross("tokens_per_min", perMin.consumedPoints);
      else if (cards >= config.cardsPerMin) await cross("cards_per_min", cards);
    },
    /** Counts a declined donation; a decline rate over threshold starts defence mode. */
    async recordDecline(): Promise<void> {
      const [perMin, inWindow] = await Promise.all([
        declinesMin.penalty(ALL, 1),
        declinesWindow.penalty(ALL, 1),
      ]);
      if (perMin.consumedPoints >= config.declinesPerMin)
        return cross("declines_per_min", perMin.consumedPoints);
      const tokens = (await tokensWindow.get(ALL))?.consumedPoints ?? 0;
      const ratio = tokens > 0 ? inWindow.consumedPoints / tokens : 0;
      if (tokens >= config.minSample && ratio >= config.declineRatio) await cross("decline_ratio", ratio);
    },
  };
}

export type Defence = ReturnType<typeof createDefence>;
