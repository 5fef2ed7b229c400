/**
 * The whole-traffic signals of card testing from many addresses. The counters are the store's
 * (shared by every proxy on PostgreSQL, in memory with SQLite; one round trip for all of a
 * tokenization's, one more when its card is new), kept for all campaigns together and for each
 * campaign: card tokenizations and declines per minute, declines over tokenizations in a sliding
 * window, distinct cards per minute, (overall) a run of distinct cards sharing a BIN and the
 * hundred of their last four, and one donor or one amount declined from many clients. A card is
 * known only by a keyed hash (keys.ts), its BIN and those two digits: never the number. A signal
 * over its threshold starts defence mode in its scope (defence-mode.ts). A decline also counts
 * against its card, its donor and its form session: the narrow refusals (scrutiny.ts).
 */
import type { Logger } from "pino";
import { rateLimitKey } from "../client-ip";
import type { DefenceConfig } from "../config";
import type { CounterHit, Counters } from "../store";
import { ALL_SCOPE, scopesOf, type DefenceMode, type DefenceSignal } from "./defence-mode";
import { keyedHash, type IdentityDeclines } from "./keys";
import type { MintedTokens } from "./minted";

const MINUTE_MS = 60_000;

/** A signal's counter: its hit for one scope, card or run. */
const counter =
  (prefix: string, ttlMs: number) =>
  (id: string, points = 1): CounterHit => ({ key: `${prefix}:${id}`, points, ttlMs });

/** What a declined donation came with, for the signals and the narrow refusals. */
export interface DeclineDetail {
  token?: string;
  email?: string;
  name?: string;
  amount?: string;
  ip?: string;
}

/**
 * A function that never breaks a request: a store out of reach is logged, and the request goes on.
 *
 * @example
 * const guarded = guardSignals(logger);
 * await guarded("counting a decline", () => signals.countDecline(campaign, detail));
 */
export const guardSignals =
  (logger: Logger) =>
  async (what: string, run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (error) {
      logger.warn(
        { event: "defence_signal_failed", error: error instanceof Error ? error.message : String(error) },
        `defence signals: ${what} failed`,
      );
    }
  };

/**
 * @example
 * const signals = createSignals(config.defence, { counters, mode, secret, declineWindowMs, identities, minted });
 * await signals.countTokenization({ digits, key: cardKey(secret, digits) }, "71777/HOPE");
 */
export function createSignals(
  config: DefenceConfig,
  deps: {
    counters: Counters;
    mode: Pick<DefenceMode, "cross">;
    /** Key of the donor, amount and client hashes (the signing secret). */
    secret: string;
    declineWindowMs: number;
    identities: IdentityDeclines;
    minted: Pick<MintedTokens, "recall">;
    /** Told of a declined card's form session (form-session.ts blocks a session whose cards are declined). */
    onSessionDecline?: (session: string) => Promise<void>;
  },
) {
  const count = deps.counters;
  const { cross } = deps.mode;
  const { declineWindowMs } = deps;
  const tokensMin = counter("sig-tokens-min", MINUTE_MS);
  const declinesMin = counter("sig-declines-min", MINUTE_MS);
  const tokensWindow = counter("sig-tokens-win", config.windowS * 1000);
  const declinesWindow = counter("sig-declines-win", config.windowS * 1000);
  const cardSeen = counter("sig-card", MINUTE_MS);
  const cardsMin = counter("sig-cards-min", MINUTE_MS);
  const binCardSeen = counter("sig-bin-card", config.binWindowS * 1000);
  const binCards = counter("sig-bin", config.binWindowS * 1000);
  const hashOf = (label: string, value: string) => keyedHash(deps.secret, label, value);
  const limits = (scope: string) =>
    scope === ALL_SCOPE
      ? { tokens: config.tokensPerMin, declines: config.declinesPerMin, cards: config.cardsPerMin }
      : {
          tokens: config.campaignTokensPerMin,
          declines: config.campaignDeclinesPerMin,
          cards: config.campaignCardsPerMin,
        };

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

  return {
    /** Counts a tokenization about to reach the upstream, overall and for its campaign (`key`: cardKey's). */
    countTokenization: (card: { digits: string; key: string }, campaign?: string) =>
      countTokenization(scopesOf(campaign), card.digits, card.key),

    /**
     * Counts a declined donation, overall and for its campaign, and against what it came with:
     * its card, its donor's e-mail and its form session (narrow refusals).
     */
    async countDecline(campaign: string | undefined, detail: DeclineDetail): Promise<void> {
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
      const minted = detail.token ? await deps.minted.recall(detail.token) : null;
      await count.add([
        ...(detail.email ? [{ ...deps.identities.donor(detail.email), points: 1 }] : []),
        ...(minted ? [{ ...deps.identities.card(minted.card), points: 1 }] : []),
      ]);
      if (minted?.session && deps.onSessionDecline) await deps.onSessionDecline(minted.session);
      await countDeclines(scopesOf(campaign));
    },
  };
}
