/**
 * The defence's three answers to a card's request: let through, challenge, refuse. Scrutiny
 * (defence mode in the card's scope, a client whose declines mount, a session minted in bulk or
 * used from another client) asks for a challenge, givekit's own proof of work (pow.ts; Turnstile
 * instead, when configured), whose difficulty rises with the evidence: a phone pays it once, a
 * tester on every card. Nobody is throttled to a fixed rate. Refusals are narrow: a card or a
 * donor whose declines mount (a session's are form-session.ts's). Every path to the card network
 * is gated: a donation's charge too, whose card token must have been made under the scrutiny
 * that holds now, and recently.
 */
import type { Logger } from "pino";
import type { Challenge } from "../../contract/api";
import { rateLimitKey } from "../client-ip";
import type { DefenceConfig } from "../config";
import { ProblemError } from "../problem";
import type { Counters } from "../store";
import { isEvidence, scopesOf, type DefenceMode } from "./defence-mode";
import type { SessionFacts } from "./form-session";
import type { IdentityDeclines } from "./keys";
import type { MintedToken, MintedTokens } from "./minted";
import type { Pow } from "./pow";
import type { ChallengeVerifier } from "./turnstile";

/** Why a donation or tokenization is scrutinised (the log's `scrutiny`), and at what level. */
export interface Scrutiny {
  level: number;
  why: string;
}

/** What a card's request carries for the defence to weigh. */
export interface CardRequest {
  ip: string;
  /** The campaign's scope, named by the request or by its session. */
  campaign?: string;
  session?: SessionFacts | null;
  proof?: string;
  /** The card's BIN (its first six digits): its circuit breaker's scope. */
  bin?: string;
  /** The card's keyed hash (keys.ts): a card tokenized again is counted once at the breakers. */
  card?: string;
}

function challengeFailed(): ProblemError {
  return new ProblemError("challenge_failed", "The check that you are a person did not pass. Try again.");
}

/**
 * @example
 * const admission = createAdmission(config.defence, { mode, pow, verifier: null, … });
 * await admission.admitTokenization({ ip, campaign: "71777/HOPE", session, proof }); // 403 challenge_required in defence mode
 */
export function createAdmission(
  config: DefenceConfig,
  deps: {
    mode: Pick<DefenceMode, "activeIn">;
    counters: Counters;
    logger: Logger;
    pow: Pow;
    /** Turnstile's verify, and the challenge the frame shows; null: the proof of work alone. */
    verifier: ChallengeVerifier | null;
    turnstile: Challenge | null;
    identities: IdentityDeclines;
    minted: Pick<MintedTokens, "recall">;
    /** A client's declines in the decline window (rate-limit.ts), and the count that makes it evidence. */
    clientDeclines?: (ip: string) => Promise<number>;
    declineLimit: number;
    /** Whether the card's client or campaign has spent half a circuit breaker's budget (breaker.ts): challenged before any breaker opens. */
    breakerPressure?: (ip: string, campaign?: string) => Promise<boolean>;
    /** Logs a failure that must not break the request. */
    guarded: (what: string, run: () => Promise<void>) => Promise<void>;
  },
) {
  const { pow, verifier, turnstile, declineLimit } = deps;

  /**
   * How closely a card's request is watched now, or null when it is let through as it is:
   * defence mode in its scope (a tokenization that names no campaign meets every scope's),
   * its client's mounting declines (the level rises with them), its session minted in bulk or
   * sent from another client than the one it was minted for.
   */
  async function scrutiny(
    request: Omit<CardRequest, "proof">,
    /** A charge's token: a breaker's budget weighs new cards, not the charge of one made already. */
    forCharge = false,
  ): Promise<Scrutiny | null> {
    const reasons: Scrutiny[] = [];
    try {
      const named = request.campaign || request.session?.campaign || undefined;
      const states = await deps.mode.activeIn(named ? scopesOf(named) : undefined);
      for (const state of states)
        reasons.push({ level: isEvidence(state.signal) ? 1 : 0, why: `defence:${state.signal}` });
    } catch (error) {
      // Fail open on the store: without it the proxy cannot take a donation anyway (claims live there).
      await deps.guarded("reading defence mode", () => Promise.reject(error));
    }
    const declines = deps.clientDeclines ? await deps.clientDeclines(request.ip).catch(() => 0) : 0;
    // One level (twice the work) more for each decline past the limit, without a cap: a tester
    // behind one client pays more for every card; a person there pays once.
    if (declines >= declineLimit)
      reasons.push({ level: 1 + declines - declineLimit, why: "client_declines" });
    const campaign = request.campaign || request.session?.campaign || undefined;
    if (
      !forCharge &&
      deps.breakerPressure &&
      (await deps.breakerPressure(request.ip, campaign).catch(() => false))
    )
      reasons.push({ level: 1, why: "breaker_budget" });
    if (request.session?.bulk) reasons.push({ level: 0, why: "session_bulk" });
    if (request.session?.foreign) reasons.push({ level: 0, why: "session_foreign" });
    if (reasons.length === 0) return null;
    const top = reasons.reduce((a, b) => (b.level > a.level ? b : a));
    // maxLevel caps the evidence of defence mode; a client's own declines rise past it.
    return {
      level: top.why === "client_declines" ? top.level : Math.min(top.level, pow.maxLevel),
      why: top.why,
    };
  }

  return {
    scrutiny,

    /**
     * A card whose declines mount is refused before the network at its tokenization as at its
     * charge (card_declined): a tester's one dead number sent again and again reaches the upstream
     * no more. Before any breaker's hold (defence.ts), so each refusal is counted as evidence.
     */
    async refuseDeadCard(card: string | undefined): Promise<void> {
      if (!card) return;
      const [declined] = await deps.counters.add([{ ...deps.identities.card(card), points: 0 }]);
      if (declined!.points >= config.identityDeclines)
        throw new ProblemError("card_declined", "The card was declined. No money was taken.");
    },

    /**
     * Before a tokenization: let through (`proven` null) when nothing calls for scrutiny; else a
     * solved challenge of today's level bound to its session (403 challenge_required carrying a
     * new one without, or for an easier level; challenge_failed for a forged, replayed, expired
     * or foreign one), or Turnstile's proof where configured (failing closed to the proof of
     * work when its verify endpoint is down). Resolves with the level the card was proven at.
     */
    async admitTokenization(
      request: CardRequest,
    ): Promise<{ proven: number | null; scrutiny: Scrutiny | null; human: boolean }> {
      const found = await scrutiny(request);
      if (!found) return { proven: null, scrutiny: found, human: false };
      const bound = request.session?.id ?? `client:${rateLimitKey(request.ip)}`;
      const ask = async (level: number) =>
        new ProblemError(
          "challenge_required",
          "Confirm you are a person, then try again.",
          undefined,
          {},
          {
            challenge: await pow.issue(bound, level),
          },
        );
      if (verifier && turnstile && !request.proof?.includes("~")) {
        if (!request.proof)
          throw new ProblemError(
            "challenge_required",
            "Confirm you are a person, then try again.",
            undefined,
            {},
            {
              challenge: turnstile,
            },
          );
        const verdict = await verifier.verify(request.proof, request.ip);
        if (verdict.kind === "passed") return { proven: found.level, scrutiny: found, human: true };
        if (verdict.kind === "failed") throw challengeFailed();
        deps.logger.warn(
          { event: "challenge_unavailable", reason: verdict.reason, fallback: "pow" },
          "challenge verify endpoint unavailable: asking givekit's own challenge instead",
        );
        throw await ask(found.level);
      }
      if (!request.proof) throw await ask(found.level);
      const verdict = await pow.verify(request.proof, bound, found.level);
      if (verdict.kind === "passed") return { proven: verdict.level, scrutiny: found, human: false };
      if (verdict.kind === "too_easy") throw await ask(found.level);
      deps.logger.info(
        { event: "challenge_refused", reason: verdict.reason, scrutiny: found.why },
        "a challenge's solution was refused",
      );
      throw challengeFailed();
    },

    /**
     * Before a donation's charge, nothing sent yet: a donor or card whose declines mount is
     * refused (too_many_declines; card_declined for the card); under scrutiny, a token this proxy
     * did not mint, minted without the challenge today's level asks, or held longer than
     * tokenHoldS is refused with card_check_required (the widget has the frame tokenize again,
     * meeting the challenge there). Resolves with whether the token was proven by a challenge.
     */
    async admitDonation(request: {
      ip: string;
      campaign: string;
      token: string;
      email?: string;
    }): Promise<{ minted: MintedToken | null; proven: boolean }> {
      const minted = await deps.minted.recall(request.token);
      const hits = [
        ...(request.email ? [{ ...deps.identities.donor(request.email), points: 0 }] : []),
        ...(minted ? [{ ...deps.identities.card(minted.card), points: 0 }] : []),
      ];
      const states = hits.length ? await deps.counters.add(hits) : [];
      const donorState = request.email ? states[0] : undefined;
      const cardState = minted ? states[states.length - 1] : undefined;
      if (donorState && donorState.points >= config.identityDeclines)
        throw new ProblemError(
          "too_many_declines",
          "Too many declined payments for this donor. Try again later.",
        );
      if (cardState && cardState.points >= config.identityDeclines)
        throw new ProblemError("card_declined", "The card was declined. No money was taken.");
      const held = minted !== null && Date.now() - minted.mintedAt > config.tokenHoldS * 1000;
      const now = await scrutiny({ ip: request.ip, campaign: request.campaign }, true);
      const short = now !== null && (minted?.proven ?? -1) < now.level;
      if (held || short) {
        throw new ProblemError(
          "card_check_required",
          "Check the card again, then give.",
          undefined,
          {},
          { reason: held ? "held" : "scrutiny" },
        );
      }
      return { minted, proven: minted?.proven !== null && minted?.proven !== undefined };
    },
  };
}
