/**
 * The card-testing defence, put together from its concerns: the whole-traffic signals
 * (signals.ts) that start defence mode (defence-mode.ts); the three answers to a card's request,
 * let through, challenge or refuse (scrutiny.ts), with givekit's proof of work (pow.ts) or
 * Turnstile (turnstile.ts); the card tokens the proxy minted (minted.ts); a card, a token and a
 * donor known only by keyed hashes (keys.ts). The routes are handed the parts they use, in plain
 * sight: a tokenization its admission and counting, a donation its admission and its decline.
 */
import type { Logger } from "pino";
import type { Challenge } from "../../contract/api";
import type { DefenceConfig } from "../config";
import { memoryCounters } from "../store/counters";
import type { Counters, DefenceStore } from "../store";
import { createDefenceMode, scopesOf } from "./defence-mode";
import { identityDeclines } from "./keys";
import { createMintedTokens, type MintedToken } from "./minted";
import { createPow } from "./pow";
import { createAdmission } from "./scrutiny";
import { createSignals, guardSignals, type DeclineDetail } from "./signals";
import { createTurnstileVerifier, type ChallengeVerifier } from "./turnstile";

export { cardKey, tokenKey } from "./keys";
export type { MintedToken } from "./minted";
export type { CardRequest, Scrutiny } from "./scrutiny";

/**
 * @example
 * const defence = createDefence(config.defence, { store, counters: store.counters, logger, secret });
 * await defence.admitTokenization({ ip, campaign: "71777/HOPE", session, proof }); // 403 challenge_required in defence mode
 * await defence.recordTokenization({ digits, key: cardKey(secret, digits) }, "71777/HOPE");
 */
export function createDefence(
  config: DefenceConfig,
  deps: {
    store: DefenceStore;
    counters: Counters | null;
    logger: Logger;
    verifier?: ChallengeVerifier;
    /** Key of the card, token and donor hashes (the signing secret). */
    secret?: string;
    /** A client's declines in the decline window (rate-limit.ts), and the count that makes it evidence. */
    clientDeclines?: (ip: string) => Promise<number>;
    declineLimit?: number;
    declineWindowS?: number;
    /** Told of a declined card's form session (form-session.ts blocks a session whose cards are declined). */
    onSessionDecline?: (session: string) => Promise<void>;
  },
) {
  const counters = deps.counters ?? memoryCounters();
  const secret = deps.secret ?? "givekit defence";
  const declineWindowMs = (deps.declineWindowS ?? 600) * 1000;
  const verifier =
    deps.verifier ??
    (config.turnstile
      ? createTurnstileVerifier({
          secret: config.turnstile.secret,
          verifyUrl: config.turnstile.verifyUrl,
          timeoutMs: config.turnstile.timeoutMs,
        })
      : null);
  const turnstile: Challenge | null = config.turnstile
    ? { provider: "turnstile", site_key: config.turnstile.siteKey, script_url: config.turnstile.scriptUrl }
    : null;
  const guarded = guardSignals(deps.logger);
  const mode = createDefenceMode({
    store: deps.store,
    logger: deps.logger,
    quietS: config.quietS,
    challenge: verifier ? "turnstile" : "pow",
  });
  const identities = identityDeclines(secret, declineWindowMs);
  const minted = createMintedTokens({ counters, secret, holdS: config.tokenHoldS });
  const signals = createSignals(config, {
    counters,
    mode,
    secret,
    declineWindowMs,
    identities,
    minted,
    onSessionDecline: deps.onSessionDecline,
  });
  const admission = createAdmission(config, {
    mode,
    counters,
    logger: deps.logger,
    pow: createPow(config.pow, { secret, counters: deps.counters }),
    verifier,
    turnstile,
    identities,
    minted,
    clientDeclines: deps.clientDeclines,
    declineLimit: deps.declineLimit ?? 5,
    guarded,
  });

  return {
    /** The periods of defence mode on now for this campaign (its own, or all campaigns'). */
    active: (campaign?: string) => mode.activeIn(scopesOf(campaign)),
    scrutiny: admission.scrutiny,
    admitTokenization: admission.admitTokenization,
    admitDonation: admission.admitDonation,
    /** Remembers a token just minted, for its donation (the hold time), shared by every proxy. */
    recordToken: (token: string, facts: MintedToken) =>
      guarded("remembering a card token", () => minted.remember(token, facts)),
    /** What this proxy (or another on the same store) minted under this token, or null. */
    mintedToken: minted.recall,
    /** Counts a tokenization about to reach the upstream, overall and for its campaign (`key`: cardKey's). */
    recordTokenization: (card: { digits: string; key: string }, campaign?: string) =>
      guarded("counting a tokenization", () => signals.countTokenization(card, campaign)),
    /**
     * Counts a declined donation, overall and for its campaign, and against what it came with:
     * its card, its donor's e-mail and its form session (narrow refusals).
     */
    recordDecline: (campaign?: string, detail: DeclineDetail = {}) =>
      guarded("counting a decline", () => signals.countDecline(campaign, detail)),
  };
}

export type Defence = ReturnType<typeof createDefence>;
