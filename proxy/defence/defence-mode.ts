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
 * last crossing.
 *
 * The defence has three answers: let through, challenge, refuse. Scrutiny (defence mode in the
 * card's scope, a client whose declines mount, a session minted in bulk or used from another
 * client) asks for a challenge, givekit's own proof of work (pow.ts; Turnstile instead, when
 * configured), whose difficulty rises with the evidence: a phone pays it once, a tester on every
 * card. Nobody is throttled to a fixed rate. Refusals are narrow: a session, a card or a donor
 * whose declines mount. Every path to the card network is gated: a donation's charge too, whose
 * card token must have been made under the scrutiny that holds now, and recently.
 */
import { createHmac } from "node:crypto";
import type { Logger } from "pino";
import type { Challenge } from "../../contract/api";
import { rateLimitKey } from "../client-ip";
import type { DefenceConfig } from "../config";
import { ProblemError } from "../problem";
import { memoryCounters } from "../store/counters";
import { VOLUME_SIGNALS } from "../store/defence";
import type { CounterHit, Counters, DefenceState, Store } from "../store";
import type { SessionFacts } from "./form-session";
import { createPow } from "./pow";
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
  | "bin_run"
  /** One donor (e-mail, or name) declined from many clients: a tester's one identity behind many addresses. */
  | "donor_spread"
  /** One amount declined from many clients: a tester's one test charge behind many addresses. */
  | "amount_spread";

/** Evidence of card testing (declines, their share, a BIN run); the rest is volume (store/defence.ts). */
export const isEvidence = (signal: string) => !(VOLUME_SIGNALS as readonly string[]).includes(signal);

/** A card as the signals know it: a keyed hash of its number, never the number. */
export const cardKey = (secret: string, digits: string) =>
  createHmac("sha256", secret).update(`card:${digits}`).digest("hex");

/** A card token as the notes keep it: a keyed hash, never the token. */
export const tokenKey = (secret: string, token: string) =>
  createHmac("sha256", secret).update(`token:${token}`).digest("hex");

/** What the proxy remembers of a card token it minted (the store's notes, for the hold time). */
export interface MintedToken {
  mintedAt: number;
  /** The challenge level it was made under; null: it met none. */
  proven: number | null;
  session: string | null;
  card: string;
}

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
}

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
  const count = deps.counters ?? memoryCounters();
  const tokensMin = counter("sig-tokens-min", MINUTE_MS);
  const declinesMin = counter("sig-declines-min", MINUTE_MS);
  const tokensWindow = counter("sig-tokens-win", config.windowS * 1000);
  const declinesWindow = counter("sig-declines-win", config.windowS * 1000);
  const cardSeen = counter("sig-card", MINUTE_MS);
  const cardsMin = counter("sig-cards-min", MINUTE_MS);
  const binCardSeen = counter("sig-bin-card", config.binWindowS * 1000);
  const binCards = counter("sig-bin", config.binWindowS * 1000);
  const secret = deps.secret ?? "givekit defence";
  const pow = createPow(config.pow, { secret, counters: deps.counters });
  const declineLimit = deps.declineLimit ?? 5;
  const declineWindowMs = (deps.declineWindowS ?? 600) * 1000;
  const hashOf = (label: string, value: string) =>
    createHmac("sha256", secret).update(`${label}:${value}`).digest("hex").slice(0, 32);
  const donorDeclines = (email: string) => ({
    key: `donor-declines:${hashOf("donor", email.trim().toLowerCase())}`,
    ttlMs: declineWindowMs,
  });
  const cardDeclines = (card: string) => ({
    key: `card-declines:${card.slice(0, 32)}`,
    ttlMs: declineWindowMs,
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
  const turnstile: Challenge | null = config.turnstile
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
          challenge: verifier ? "turnstile" : "pow",
        },
        isEvidence(signal)
          ? "defence mode started: card testing suspected; cards are challenged"
          : "defence mode started: high volume; cards are challenged, nobody refused",
      );
    }
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
   * Counts the distinct clients one donor's declined gifts came from in the decline window, known
   * by a keyed hash of the e-mail and, apart, of the name (a tester varies one more often than
   * both); `donorSpreadClients` of them put the campaign in defence mode (every card challenged).
   * A person's card is declined from a phone and a laptop; a tester's identity from every address it has.
   */
  async function countDonorSpread(
    campaign: string,
    identities: { identity: string; clients: number; signal: DefenceSignal }[],
    ip: string,
  ): Promise<void> {
    const client = hashOf("client", rateLimitKey(ip));
    for (const { identity, clients: limit, signal } of identities) {
      const donor = hashOf("donor", identity);
      const [seen] = await count.add([
        { key: `donor-client:${donor}:${client}`, points: 1, ttlMs: declineWindowMs },
      ]);
      if (seen!.points !== 1) continue;
      const [clients] = await count.add([
        { key: `donor-clients:${donor}`, points: 1, ttlMs: declineWindowMs },
      ]);
      if (clients!.points >= limit) await cross(campaign, signal, clients!.points);
    }
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

  const defence = {
    /** The periods of defence mode on now for this campaign (its own, or all campaigns'). */
    active: (campaign?: string) => activeIn(scopesOf(campaign)),
    /**
     * How closely a card's request is watched now, or null when it is let through as it is:
     * defence mode in its scope (a tokenization that names no campaign meets every scope's),
     * its client's mounting declines (the level rises with them), its session minted in bulk or
     * sent from another client than the one it was minted for.
     */
    async scrutiny(request: Omit<CardRequest, "proof">): Promise<Scrutiny | null> {
      const reasons: Scrutiny[] = [];
      try {
        const named = request.campaign || request.session?.campaign || undefined;
        const states = named
          ? await activeIn(scopesOf(named))
          : activeDefences(await deps.store.defenceStates());
        for (const state of states)
          reasons.push({ level: isEvidence(state.signal) ? 1 : 0, why: `defence:${state.signal}` });
      } catch (error) {
        // Fail open on the store: without it the proxy cannot take a donation anyway (claims live there).
        await guarded("reading defence mode", () => Promise.reject(error));
      }
      const declines = deps.clientDeclines ? await deps.clientDeclines(request.ip).catch(() => 0) : 0;
      if (declines >= declineLimit)
        reasons.push({
          level: 1 + Math.floor((declines - declineLimit) / declineLimit),
          why: "client_declines",
        });
      if (request.session?.bulk) reasons.push({ level: 0, why: "session_bulk" });
      if (request.session?.foreign) reasons.push({ level: 0, why: "session_foreign" });
      if (reasons.length === 0) return null;
      const top = reasons.reduce((a, b) => (b.level > a.level ? b : a));
      return { level: Math.min(top.level, pow.maxLevel), why: top.why };
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
    ): Promise<{ proven: number | null; scrutiny: Scrutiny | null }> {
      const scrutiny = await defence.scrutiny(request);
      if (!scrutiny) return { proven: null, scrutiny };
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
        if (verdict.kind === "passed") return { proven: scrutiny.level, scrutiny };
        if (verdict.kind === "failed") throw challengeFailed();
        deps.logger.warn(
          { event: "challenge_unavailable", reason: verdict.reason, fallback: "pow" },
          "challenge verify endpoint unavailable: asking givekit's own challenge instead",
        );
        throw await ask(scrutiny.level);
      }
      if (!request.proof) throw await ask(scrutiny.level);
      const verdict = await pow.verify(request.proof, bound, scrutiny.level);
      if (verdict.kind === "passed") return { proven: verdict.level, scrutiny };
      if (verdict.kind === "too_easy") throw await ask(scrutiny.level);
      deps.logger.info(
        { event: "challenge_refused", reason: verdict.reason, scrutiny: scrutiny.why },
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
      const minted = await defence.mintedToken(request.token);
      const hits = [
        ...(request.email ? [{ ...donorDeclines(request.email), points: 0 }] : []),
        ...(minted ? [{ ...cardDeclines(minted.card), points: 0 }] : []),
      ];
      const states = hits.length ? await count.add(hits) : [];
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
      const scrutiny = await defence.scrutiny({ ip: request.ip, campaign: request.campaign });
      const short = scrutiny !== null && (minted?.proven ?? -1) < scrutiny.level;
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
    /** Remembers a token just minted, for its donation (the hold time), shared by every proxy. */
    async recordToken(token: string, facts: MintedToken): Promise<void> {
      await guarded("remembering a card token", () =>
        count.remember(
          `minted:${tokenKey(secret, token)}`,
          JSON.stringify(facts),
          config.tokenHoldS * 1000 + MINUTE_MS,
        ),
      );
    },
    /** What this proxy (or another on the same store) minted under this token, or null. */
    async mintedToken(token: string): Promise<MintedToken | null> {
      const text = await count.recall(`minted:${tokenKey(secret, token)}`).catch(() => null);
      if (!text) return null;
      try {
        return JSON.parse(text) as MintedToken;
      } catch {
        return null;
      }
    },
    /** Counts a tokenization about to reach the upstream, overall and for its campaign (`key`: cardKey's). */
    async recordTokenization(card: { digits: string; key: string }, campaign?: string): Promise<void> {
      await guarded("counting a tokenization", () =>
        countTokenization(scopesOf(campaign), card.digits, card.key),
      );
    },
    /**
     * Counts a declined donation, overall and for its campaign, and against what it came with:
     * its card, its donor's e-mail and its form session (narrow refusals).
     */
    async recordDecline(
      campaign?: string,
      detail: { token?: string; email?: string; name?: string; amount?: string; ip?: string } = {},
    ): Promise<void> {
      await guarded("counting a decline", async () => {
        const donor = (identity: string) => ({
          identity,
          clients: config.donorSpreadClients,
          signal: "donor_spread" as const,
        });
        const identities = [
          ...(detail.email ? [donor(`email:${detail.email.trim().toLowerCase()}`)] : []),
          ...(detail.name?.trim()
            ? [donor(`name:${detail.name.trim().toLowerCase().replace(/\s+/g, " ")}`)]
            : []),
          ...(detail.amount
            ? [
                {
                  identity: `amount:${detail.amount}`,
                  clients: config.amountSpreadClients,
                  signal: "amount_spread" as const,
                },
              ]
            : []),
        ];
        if (campaign && detail.ip) await countDonorSpread(campaign, identities, detail.ip);
        const minted = detail.token ? await defence.mintedToken(detail.token) : null;
        await count.add([
          ...(detail.email ? [{ ...donorDeclines(detail.email), points: 1 }] : []),
          ...(minted ? [{ ...cardDeclines(minted.card), points: 1 }] : []),
        ]);
        if (minted?.session && deps.onSessionDecline) await deps.onSessionDecline(minted.session);
        await countDeclines(scopesOf(campaign));
      });
    },
  };
  return defence;
}

function challengeFailed(): ProblemError {
  return new ProblemError("challenge_failed", "The check that you are a person did not pass. Try again.");
}

export type Defence = ReturnType<typeof createDefence>;
