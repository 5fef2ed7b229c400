/**
 * Whole-traffic signals and defence mode against card testing from many addresses. The counters
 * are the store's (shared by every proxy on PostgreSQL, in memory with SQLite; one round trip for
 * all of a tokenization's, one more when its card is new), kept
 * for all campaigns together and for each campaign: card tokenizations and declines per minute,
 * declines over tokenizations in a sliding window, distinct cards per minute, and (overall) a
 * run of distinct cards sharing a BIN and the hundred of their last four. A card is known only
 * by an HMAC of its number under the signing secret, its BIN and those two digits: never the
 * number. When a signal crosses its threshold, defence mode starts in its scope (every campaign,
 * or the one) for every proxy, in the store's `defence_modes` table; it ends `quietS` after the
 * last crossing. In defence mode a new tokenization needs a Turnstile proof when one is
 * configured. Without one, only evidence of card testing (declines, their share, a BIN run)
 * refuses: a new tokenization then takes its turn in a small budget per minute; volume alone
 * (tokenizations or cards a minute: a giving day's crowd looks the same) is only logged.
 */
import { createHmac } from "node:crypto";
import type { Logger } from "pino";
import type { Challenge } from "../../contract/api";
import type { DefenceConfig } from "../config";
import { retryAfterS } from "../middleware/rate-limit";
import { ProblemError } from "../problem";
import { memoryCounters } from "../store/counters";
import { VOLUME_SIGNALS } from "../store/defence";
import type { CounterHit, Counters, DefenceState, Store } from "../store";
import { createTurnstileVerifier, type ChallengeVerifier } from "./turnstile";

/** The scope of signals over every campaign; a campaign's scope is "shortcode/KEYWORD". */
export const ALL_SCOPE = "all";
const MINUTE_MS = 60_000;

/** A signal's counter: its hit for one scope, card or run. */
const counter =
  (prefix: string, ttlMs: number) =>
  (id: string, points = 1): CounterHit => ({ key: `${prefix}:${id}`, points, ttlMs });

export type DefenceSignal =
  | "tokens_per_min"
  | "declines_per_min"
  | "cards_per_min"
  | "decline_ratio"
  | "bin_run";

/** Evidence of card testing (declines, their share, a BIN run); the rest is volume (store/defence.ts). */
export const isEvidence = (signal: string) => !(VOLUME_SIGNALS as readonly string[]).includes(signal);

/** A card as the signals know it: a keyed hash of its number, never the number. */
export const cardKey = (secret: string, digits: string) =>
  createHmac("sha256", secret).update(`card:${digits}`).digest("hex");

/** What defence mode needs of the store. */
export type DefenceStore = Pick<Store, "crossDefence" | "defenceStates" | "endDefences">;

/**
 * Marks the periods whose quiet time is over as ended and logs each once (one proxy gets each).
 *
 * @example
 * setInterval(() => void logDefenceExits(store, logger), 5000);
 */
export async function logDefenceExits(store: DefenceStore, logger: Logger): Promise<void> {
  for (const state of await store.endDefences()) {
    logger.info(
      {
        event: "defence_mode_off",
        scope: state.scope,
        signal: state.signal,
        since: new Date(state.since).toISOString(),
        lastedS: Math.round((state.until - state.since) / 1000),
      },
      "defence mode ended: quiet period over",
    );
  }
}

/** The scopes a tokenization or decline counts in: all campaigns', and its own when named. */
const scopesOf = (campaign: string | undefined) => (campaign ? [ALL_SCOPE, campaign] : [ALL_SCOPE]);

/** The periods on now among `states`. */
export const activeDefences = (states: DefenceState[], now = Date.now()) =>
  states.filter((state) => !state.ended && state.until > now);

/**
 * @example
 * const defence = createDefence(config.defence, { store, counters: store.counters, logger });
 * await defence.admitTokenization(ip, body.challenge_token, "71777/HOPE"); // 403 challenge_required in defence mode
 * await defence.recordTokenization({ digits, key: cardKey(secret, digits) }, "71777/HOPE");
 */
export function createDefence(
  config: DefenceConfig,
  deps: {
    store: DefenceStore;
    counters: Counters | null;
    logger: Logger;
    verifier?: ChallengeVerifier;
  },
) {
  const count = deps.counters ?? memoryCounters();
  const tokensMin = counter("sig-tokens-min", MINUTE_MS);
  const declinesMin = counter("sig-declines-min", MINUTE_MS);
  const tokensWindow = counter("sig-tokens-win", config.windowS * 1000);
  const declinesWindow = counter("sig-declines-win", config.windowS * 1000);
  const cardSeen = counter("sig-card", MINUTE_MS);
  const cardsMin = counter("sig-cards-min", MINUTE_MS);
  const binCardSeen = counter("sig-bin-card", config.binWindowS * 1000);
  const binCards = counter("sig-bin", config.binWindowS * 1000);
  const throttle = counter("defence-throttle", MINUTE_MS);
  const verifier =
    deps.verifier ??
    (config.turnstile
      ? createTurnstileVerifier({
          secret: config.turnstile.secret,
          verifyUrl: config.turnstile.verifyUrl,
          timeoutMs: config.turnstile.timeoutMs,
        })
      : null);
  const challenge: Challenge | null = config.turnstile
    ? { provider: "turnstile", site_key: config.turnstile.siteKey, script_url: config.turnstile.scriptUrl }
    : null;
  const limits = (scope: string) =>
    scope === ALL_SCOPE
      ? { tokens: config.tokensPerMin, declines: config.declinesPerMin, cards: config.cardsPerMin }
      : {
          tokens: config.campaignTokensPerMin,
          declines: config.campaignDeclinesPerMin,
          cards: config.campaignCardsPerMin,
        };

  /** The signals never break a request: a store out of reach is logged, and the request goes on. */
  async function guarded(what: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      deps.logger.warn(
        { event: "defence_signal_failed", error: error instanceof Error ? error.message : String(error) },
        `defence signals: ${what} failed`,
      );
    }
  }

  /** The periods on now in these scopes; one over but not yet told is logged on the way. */
  async function activeIn(scopes: string[]): Promise<DefenceState[]> {
    const states = await deps.store.defenceStates(scopes);
    const now = Date.now();
    if (states.some((state) => !state.ended && state.until <= now))
      await logDefenceExits(deps.store, deps.logger);
    return activeDefences(states, now);
  }

  /** A signal over its threshold: starts defence mode in its scope, or keeps it on another quiet period. */
  async function cross(scope: string, signal: DefenceSignal, value: number, extra: object = {}) {
    // A period over but not yet told is told before a new one starts.
    await logDefenceExits(deps.store, deps.logger);
    // Evidence over a period that volume started: read before, to tell that it takes over.
    const before = isEvidence(signal) ? (await deps.store.defenceStates([scope]))[0] : undefined;
    const { entered, state } = await deps.store.crossDefence(scope, signal, value, config.quietS * 1000);
    if (!entered && before && activeDefences([before]).length > 0 && !isEvidence(before.signal)) {
      if (state.signal === signal)
        deps.logger.warn(
          { event: "defence_mode_evidence", scope, signal, value, ...extra, was: before.signal },
          "defence mode: card testing suspected during high volume",
        );
    }
    if (entered) {
      deps.logger.warn(
        {
          event: "defence_mode_on",
          scope,
          signal,
          value,
          ...extra,
          challenge: verifier ? "turnstile" : isEvidence(signal) ? "throttle" : "none",
        },
        isEvidence(signal) || verifier
          ? "defence mode started: card testing suspected"
          : "defence mode started: high volume, watched (no challenge configured, nobody refused)",
      );
    }
  }

  async function throttled(scope: string): Promise<void> {
    const [turns] = await count.add([throttle(scope)]);
    if (turns!.points <= config.throttlePerMin) return;
    throw new ProblemError(
      "rate_limited",
      "Too many card payments right now. Try again in a minute.",
      undefined,
      { "Retry-After": retryAfterS(turns!) },
    );
  }

  /**
   * Counts one tokenization in each scope and in its BIN run, all in one round trip (one more
   * when the card is new to a scope or run), then checks each signal: per scope, tokenizations
   * and distinct cards per minute; overall, distinct cards sharing a BIN and the hundred of their
   * last four within binWindowS (sequential numbers, or the same last four with the middle varied).
   */
  async function countTokenization(scopes: string[], digits: string, hash: string): Promise<void> {
    const bin = digits.slice(0, 6);
    const run = `${bin}:${digits.slice(-4, -2)}`;
    const seen = await count.add([
      ...scopes.flatMap((scope) => [tokensMin(scope), cardSeen(`${scope}:${hash}`), tokensWindow(scope)]),
      binCardSeen(`${run}:${hash}`),
    ]);
    const isNew = (index: number) => seen[index]!.points === 1;
    const newIn = scopes.filter((_, index) => isNew(index * 3 + 1));
    const newRun = isNew(scopes.length * 3);
    const cards = await count.add([
      ...newIn.map((scope) => cardsMin(scope)),
      ...(newRun ? [binCards(run)] : []),
    ]);
    for (const [index, scope] of scopes.entries()) {
      const perMin = seen[index * 3]!.points;
      const at = newIn.indexOf(scope);
      const distinct = at === -1 ? 0 : cards[at]!.points;
      const limit = limits(scope);
      if (perMin >= limit.tokens) await cross(scope, "tokens_per_min", perMin);
      else if (distinct >= limit.cards) await cross(scope, "cards_per_min", distinct);
    }
    const runCards = newRun ? cards[newIn.length]!.points : 0;
    if (runCards >= config.binCards) await cross(ALL_SCOPE, "bin_run", runCards, { bin });
  }

  /**
   * Counts one decline in each scope, in one round trip, then checks each scope's signals. Declines
   * a minute count only at declineRatio of that minute's tokenizations or more: a crowd's usual
   * share of declined cards, however large the crowd, is not card testing.
   */
  async function countDeclines(scopes: string[]): Promise<void> {
    const states = await count.add(
      scopes.flatMap((scope) => [
        declinesMin(scope),
        declinesWindow(scope),
        tokensWindow(scope, 0),
        tokensMin(scope, 0),
      ]),
    );
    for (const [index, scope] of scopes.entries()) {
      const [perMin, inWindow, tokens, tokensPerMin] = states
        .slice(index * 4, index * 4 + 4)
        .map((state) => state.points);
      if (perMin! >= limits(scope).declines && perMin! >= config.declineRatio * tokensPerMin!) {
        await cross(scope, "declines_per_min", perMin!);
        continue;
      }
      const ratio = tokens! > 0 ? inWindow! / tokens! : 0;
      if (tokens! >= config.minSample && ratio >= config.declineRatio)
        await cross(scope, "decline_ratio", ratio);
    }
  }

  return {
    /** The periods of defence mode on now for this campaign (its own, or all campaigns'). */
    active: (campaign?: string) => activeIn(scopesOf(campaign)),
    /**
     * Before a tokenization: outside defence mode, nothing. In it, a valid Turnstile proof
     * (403 challenge_required without one, carrying the challenge to show; challenge_failed for
     * a bad one), or, without a challenge or with its verify endpoint down (fail closed), a turn
     * in the budget of the scope in defence mode.
     */
    async admitTokenization(ip: string, proof: string | undefined, campaign?: string): Promise<void> {
      let on: DefenceState[];
      try {
        on = await activeIn(scopesOf(campaign));
      } catch (error) {
        // Fail open: without its store the proxy cannot take a donation anyway (claims live there).
        await guarded("reading defence mode", () => Promise.reject(error));
        return;
      }
      // Without a challenge, volume is only watched: evidence alone refuses.
      const refusing = verifier && challenge ? on : on.filter((state) => isEvidence(state.signal));
      const scope = refusing[0]?.scope;
      if (scope === undefined) return;
      if (!verifier || !challenge) return throttled(scope);
      if (!proof) {
        throw new ProblemError(
          "challenge_required",
          "Confirm you are a person, then try again.",
          undefined,
          {},
          { challenge },
        );
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
      return throttled(scope);
    },
    /** Counts a tokenization about to reach the upstream, overall and for its campaign (`key`: cardKey's). */
    async recordTokenization(card: { digits: string; key: string }, campaign?: string): Promise<void> {
      await guarded("counting a tokenization", () =>
        countTokenization(scopesOf(campaign), card.digits, card.key),
      );
    },
    /** Counts a declined donation, overall and for its campaign. */
    async recordDecline(campaign?: string): Promise<void> {
      await guarded("counting a decline", () => countDeclines(scopesOf(campaign)));
    },
  };
}

export type Defence = ReturnType<typeof createDefence>;
