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
import { ProblemError } from "../problem";
import { createAllowances } from "./allowances";
import { breakerScopes, createBreaker, type BreakerOpened } from "./breaker";
import { ALL_SCOPE, createDefenceMode, scopesOf } from "./defence-mode";
import { identityDeclines } from "./keys";
import { createMintedTokens, type MintedToken } from "./minted";
import { createPow } from "./pow";
import { createAdmission, type CardRequest } from "./scrutiny";
import { createSignals, guardSignals, type DeclineDetail } from "./signals";
import { createTurnstileVerifier, type ChallengeVerifier } from "./turnstile";

/** Where a client breaker opened on declines is noted, and for how long it makes a known tester. */
const TESTER_PREFIX = "breaker-tester:";
const TESTER_MS = 3_600_000;
const DECLINED_WHY = ["declines", "probe declined", "dead cards"];

export { cardKey, tokenKey } from "./keys";
export type { MintedToken } from "./minted";
export type { CardRequest, Scrutiny } from "./scrutiny";

/** A card held by an open breaker (429): where Turnstile is configured, the human check is asked first. */
const isWaiting = (error: unknown) =>
  error instanceof ProblemError && error.code === "rate_limited" && error.extensions?.breaker === true;

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
    /** Told once when defence mode starts in a scope (the alert). */
    onDefenceMode?: (scope: string, signal: string, value: number) => void;
    /** Told of each circuit breaker that opens (the metric, the alert). */
    onBreakerOpen?: (kind: "client" | "campaign" | "bin", opened: BreakerOpened) => void;
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
    onEnter: deps.onDefenceMode,
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
  const breaker = createBreaker(config.breaker, {
    counters,
    logger: deps.logger,
    onOpen: (kind, opened) => {
      deps.onBreakerOpen?.(kind, opened);
      // A client whose cards were declined is a known tester for an hour: the dashboard asks a
      // second confirmation before letting its network through.
      if (kind === "client" && DECLINED_WHY.includes(opened.why))
        void guarded("noting a known tester", () =>
          counters.remember(`${TESTER_PREFIX}${opened.scope}`, JSON.stringify(opened), TESTER_MS),
        );
    },
    // A BIN's breaker holds its run's cards; its other cards (a tester's live ones) meet the challenge.
    onBinOpen: (bin, figure) =>
      guarded("defence mode for a BIN's breaker", () => mode.cross(ALL_SCOPE, "bin_run", figure, { bin })),
  });
  // Venues let through for an event (givekit defence allow): they pass an open breaker, and
  // spending a budget does not challenge them.
  const allowances = createAllowances(counters, deps.logger);
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
    breakerPressure: async (ip, campaign) =>
      !(await allowances.has(ip)) &&
      // Half a budget; a tenth where Turnstile is configured: it costs a person a moment, and no bot passes it.
      breaker.pressed(breakerScopes(ip, campaign), verifier ? 0.1 : 0.5),
    declineLimit: deps.declineLimit ?? 5,
    guarded,
  });

  const askHuman = () =>
    new ProblemError(
      "challenge_required",
      "Confirm you are a person, then try again.",
      undefined,
      {},
      {
        challenge: turnstile,
      },
    );

  /**
   * Before a tokenization: the scrutiny's challenge (scrutiny.ts), then the breakers of its client
   * and campaign (breaker.ts). Where Turnstile is configured, a card an open breaker would hold
   * is asked to pass it instead, and goes through when it does.
   */
  async function admitTokenization(request: CardRequest) {
    const admitted = await admission.admitTokenization(request);
    const scopes = breakerScopes(
      request.ip,
      request.campaign || request.session?.campaign || undefined,
      request.bin,
    );
    const allowed = await allowances.has(request.ip);
    try {
      const pass = await breaker.admitCard(scopes, {
        human: admitted.human,
        allowed,
        card: request.card,
        form: request.session?.id,
      });
      return { ...admitted, ...pass };
    } catch (error) {
      if (isWaiting(error)) await guarded("counting a card held", () => countHeld(request.ip, request.card));
      if (!isWaiting(error) || !verifier || !turnstile) throw error;
      const proof = request.proof;
      // A Turnstile proof not yet spent on the scrutiny above.
      if (!proof || proof.includes("~") || admitted.scrutiny) throw askHuman();
      const verdict = await verifier.verify(proof, request.ip);
      if (verdict.kind !== "passed") throw askHuman();
      const pass = await breaker.admitCard(scopes, {
        human: true,
        allowed,
        card: request.card,
        form: request.session?.id,
      });
      return { ...admitted, human: true, ...pass };
    }
  }

  /**
   * Before anything counts a card's request: an open breaker that would hold it holds it at once
   * (breaker.ts's peek), or, where Turnstile is configured, asks for it; a Turnstile proof sent
   * goes on to admitTokenization, which checks it.
   */
  async function holdAtBreakers(request: {
    ip: string;
    campaign?: string;
    proof?: string;
    bin?: string;
    /** The card's keyed hash: counted for the venue box, noted for the staff's count of people held now. */
    card?: string;
    /** Its form session's id: the same card from the same form comes back through an open breaker. */
    form?: string;
  }) {
    const scopes = breakerScopes(request.ip, request.campaign, request.bin);
    // A dead card is refused before any hold, each refusal one decline in its client, campaign and
    // BIN: held at its BIN's breaker instead, a repeating tester's live cards went on meanwhile.
    await admission.refuseDeadCard(request.card).catch(async (error: unknown) => {
      if (error instanceof ProblemError && error.code === "card_declined")
        await guarded("a dead card at the breakers", () =>
          breaker.refusedDead(scopes, { card: request.card, form: request.form }),
        );
      throw error;
    });
    if (verifier && turnstile && request.proof && !request.proof.includes("~")) return;
    try {
      await breaker.peek(scopes, {
        allowed: await allowances.has(request.ip),
        card: request.card,
        form: request.form,
      });
    } catch (error) {
      if (isWaiting(error)) await guarded("counting a card held", () => countHeld(request.ip, request.card));
      if (isWaiting(error) && verifier && turnstile) throw askHuman();
      throw error;
    }
  }

  /** Cards held at the breakers from one client, each once (its keyed hash), over the window: the venue box's figure. */
  const heldWindowMs = config.breaker.windowS * 1000;
  async function countHeld(ip: string, card?: string): Promise<void> {
    if (!card) return;
    const [client] = breakerScopes(ip);
    const [first] = await counters.add([
      { key: `held-card:${client}:${card}`, points: 1, ttlMs: heldWindowMs },
    ]);
    if (first!.points === 1)
      await counters.add([{ key: `held-cards:${client}`, points: 1, ttlMs: heldWindowMs }]);
  }

  /**
   * Before a donation's charge: the narrow refusals and the token's scrutiny (scrutiny.ts), then
   * the breakers; a token an open breaker holds is made again where Turnstile is configured
   * (card_check_required: the frame meets the human check), else waits (429).
   */
  async function admitDonation(request: { ip: string; campaign: string; token: string; email?: string }) {
    const admitted = await admission.admitDonation(request);
    const facts = admitted.minted;
    try {
      const { probe, returned } = await breaker.admitCharge(
        breakerScopes(request.ip, request.campaign, facts?.bin),
        {
          human: facts?.human ?? false,
          allowed: await allowances.has(request.ip),
          probe: (facts?.probe ?? []) as ReturnType<typeof breakerScopes>,
          passed: (facts?.passed ?? []) as ReturnType<typeof breakerScopes>,
          ...(facts ? { card: facts.card, ...(facts.session ? { form: facts.session } : {}) } : {}),
        },
      );
      // A stockpiled token taken as a probe now, or a charge that came back through an open
      // breaker: its outcome closes or reopens that breaker, or counts with the cards that came back.
      if (facts && (probe.length > (facts.probe?.length ?? 0) || (returned && !facts.returned)))
        await guarded("remembering a probe or a return", () =>
          minted.remember(request.token, { ...facts, probe, ...(returned ? { returned } : {}) }),
        );
      return admitted;
    } catch (error) {
      if (isWaiting(error) && verifier && turnstile)
        throw new ProblemError(
          "card_check_required",
          "Check the card again, then give.",
          undefined,
          {},
          {
            reason: "breaker",
          },
        );
      throw error;
    }
  }

  /** A charge's outcome at its client's and campaign's breakers, found by its token's note. */
  async function breakerOutcome(
    campaign: string | undefined,
    detail: { token?: string; ip?: string },
    outcome: "charged" | "declined",
  ) {
    if (!detail.ip) return;
    const noted = detail.token ? await minted.recall(detail.token) : null;
    await breaker.recordOutcome(
      breakerScopes(detail.ip, campaign, noted?.bin),
      outcome,
      (noted?.probe ?? []) as ReturnType<typeof breakerScopes>,
      noted?.returned === true,
    );
  }

  return {
    /** The periods of defence mode on now for this campaign (its own, or all campaigns'). */
    active: (campaign?: string) => mode.activeIn(scopesOf(campaign)),
    scrutiny: admission.scrutiny,
    holdAtBreakers,
    admitTokenization,
    admitDonation,
    /** A card token the upstream made, counted at its client's and campaign's breakers (`card`: its keyed hash). */
    recordMinted: (ip: string, campaign?: string, card?: string) =>
      guarded("counting a token at the breakers", () =>
        breaker.countToken(breakerScopes(ip, campaign), card),
      ),
    /**
     * A card admitted (and reserved at its BIN's breaker) that never reached the upstream: its
     * reservation given back. One that reached it stays counted, token or not.
     */
    releaseCard: (ip: string, campaign?: string, bin?: string, card?: string) =>
      guarded("giving back a card's reservation at the breakers", () =>
        breaker.release(breakerScopes(ip, campaign, bin), card),
      ),
    /** The breakers open now among these scopes. */
    openBreakers: breaker.openIn,
    /** The venues let through (the dashboard reads them again at once after changing one). */
    allowances,
    /** How many cards the breakers held from these clients' scopes (`client:…`) in the window, each card once. */
    async cardsHeldAt(clients: readonly string[]): Promise<number> {
      if (clients.length === 0) return 0;
      const held = await counters.add(
        clients.map((client) => ({ key: `held-cards:${client}`, points: 0, ttlMs: heldWindowMs })),
      );
      return held.reduce((sum, each) => sum + Math.max(0, each.points), 0);
    },
    /** Why this client's breaker opened on declines in the last hour (a known tester), or null. */
    async knownTester(ip: string): Promise<BreakerOpened | null> {
      const [client] = breakerScopes(ip);
      const text = await counters.recall(`${TESTER_PREFIX}${client}`).catch(() => null);
      return text ? (JSON.parse(text) as BreakerOpened) : null;
    },
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
    recordDecline: async (campaign?: string, detail: DeclineDetail = {}) => {
      await guarded("counting a decline", () => signals.countDecline(campaign, detail));
      await guarded("a decline at the breakers", () => breakerOutcome(campaign, detail, "declined"));
    },
    /** A charged donation: pays its tokenization at its client's and campaign's breakers, and closes one it was the probe of. */
    recordCharge: (campaign: string, detail: { token: string; ip: string }) =>
      guarded("a charge at the breakers", () => breakerOutcome(campaign, detail, "charged")),
  };
}

export type Defence = ReturnType<typeof createDefence>;
