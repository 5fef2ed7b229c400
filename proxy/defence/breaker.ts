/**
 * The bound on cards reaching the network, whoever sends them (a bot that solves every challenge
 * and invents a donor per card too): budgets per client, per campaign and per BIN of declines and of
 * tokenizations not answered by a charge or a decline, counted in the store's counters (shared by every proxy
 * on PostgreSQL) over a window, each card reserved as it is admitted; each charge widens both by `successShare`, so a crowd's usual
 * share of declined cards never spends them. Past a budget the scope's breaker opens (a note in
 * the store, logged and counted once): a client's or campaign's holds each card once, a moment,
 * and lets it through when it comes back from the same form (a person's widget comes back, a
 * tester's script moves on), while the cards that came back are seldom declined; past that, and
 * at a BIN's, cards wait. Once its time is over it lets one card through
 * as a probe (one every `openS` while the probe's outcome is unknown); a charge closes it (with
 * one decline of its budget left), a decline opens it again for twice as long. Where Turnstile is configured, a person who passes it
 * goes through an open breaker: the human check is asked before anyone is refused.
 */
import type { Logger } from "pino";
import { rateLimitKey } from "../client-ip";
import type { BreakerConfig } from "../config";
import { ProblemError } from "../problem";
import type { Counters } from "../store";

/**
 * A breaker's scope: one client (its rate-limit key), one campaign ("shortcode/KEYWORD"), or one
 * BIN (a card number's first six digits, over every client and campaign: a tester's run).
 */
export type BreakerScope = `client:${string}` | `campaign:${string}` | `bin:${string}`;

/** A breaker that just opened: its scope, why (declines, tokenizations, probe declined, …) and the count. */
export interface BreakerOpened {
  scope: BreakerScope;
  why: string;
  figure: number;
  openS: number;
  openedAt: number;
}

/** An open breaker, as the store's note keeps it. */
interface OpenBreaker {
  /** Cards wait until then; after it, one probe each openS. */
  until: number;
  openS: number;
  openedAt: number;
}

/**
 * What a card admitted through the breakers is: an ordinary card, an open breaker's probe, or a
 * newcomer an open campaign breaker let pass (`passed`: its charge is not held there either).
 */
export interface BreakerPass {
  probe: BreakerScope[];
  passed: BreakerScope[];
  /** A card that came back after its hold and passed an open client or campaign breaker: its outcome is counted there. */
  returned?: true;
}

/**
 * A card at a client's or campaign's open breaker is held this long once (the widget comes back
 * after it, widget/donate/outcome/attempt.ts's BREAKER_FIRST_RETRY_MS), then passes: a person's
 * widget comes back, a tester's script moves on to its next card.
 */
export const COME_BACK_AFTER_MS = 1500;
/**
 * The cards that came back pass while their declines are fewer than this and half their charges
 * (a crowd's few declines never reach it; a tester that comes back too spends it in a few cards).
 */
const RETURNED_DECLINES = 3;
const RETURNED_SHARE = 0.5;

/** The scopes of a card's request: its client's, its campaign's when it names one, its BIN's when known. */
export const breakerScopes = (ip: string, campaign?: string, bin?: string): BreakerScope[] => [
  `client:${rateLimitKey(ip)}`,
  ...(campaign ? [`campaign:${campaign}` as const] : []),
  ...(bin && /^\d{6}$/.test(bin) ? [`bin:${bin}` as const] : []),
];

/**
 * When a card held once at an open breaker may come back: the card from the same form (its form
 * session and its keyed hash; the card alone where there is no session).
 */
const onceKey = (back: string) => `brk-once:${back}`;
/** What "the same card coming back" is: one form's one card. A tester's script opens a form per card. */
const backOf = (options: { card?: string; form?: string }) =>
  options.card ? (options.form ? `${options.form}:${options.card}` : options.card) : undefined;
/** Where a scope's open breaker is noted in the store. */
const noteKey = (scope: BreakerScope) => `breaker:${scope}`;
/**
 * Where a card held at a breaker is noted (`card`: its keyed hash), beside the breakers' notes so
 * the dashboard and `givekit defence status` read both at once: when it was first and last held.
 * A widget waiting comes back within BREAKER_RETRY_MS (15 s), so a note lasts a little longer.
 */
const HELD_PREFIX = "breaker:held:";
const HELD_NOTE_MS = 20_000;

/**
 * The people held at the breakers now (cards held in the last 20 s), and for how long the one
 * held longest has waited so far, in whole seconds, from the store's notes under "breaker:".
 *
 * @example
 * heldNow(await counters.notesUnder("breaker:"), Date.now()); // { people: 3, longestS: 18 }
 */
export function heldNow(notes: readonly { key: string; value: string }[], now: number) {
  const waits = notes.flatMap((note) => {
    if (!note.key.startsWith(HELD_PREFIX) || note.value === "") return [];
    try {
      const { first, last } = JSON.parse(note.value) as { first: number; last: number };
      return now - last <= HELD_NOTE_MS ? [Math.max(0, now - first)] : [];
    } catch {
      return [];
    }
  });
  return { people: waits.length, longestS: Math.round(Math.max(0, ...waits) / 1000) };
}
type ScopeKind = "client" | "campaign" | "bin";
const kindOf = (scope: BreakerScope): ScopeKind =>
  scope.startsWith("client:") ? "client" : scope.startsWith("bin:") ? "bin" : "campaign";

/** A venue let through passes its client's breaker and budgets alone: a BIN's and a campaign's still hold. */
const passesAllowed = (scope: BreakerScope, options: { allowed?: boolean }) =>
  options.allowed === true && kindOf(scope) === "client";

/** A card held at an open breaker (or past a budget). */
const isWaiting = (error: unknown) => error instanceof ProblemError && error.code === "rate_limited";

/** The answers of a card's first hold at an open breaker: a moment, which a person comes back through. */
const firstHolds = new WeakSet<object>();
/**
 * Whether a breaker's answer was a card's first hold: not a person held (a person's widget comes
 * back through it in 2 s; a tester's card held so never comes back), so not in the staff's counts.
 */
export const isFirstHold = (error: unknown) =>
  typeof error === "object" && error !== null && firstHolds.has(error);

/** What a card waiting at an open breaker is told: 429 with when to come back, and a way out. */
function waiting(retryAfterS: number): ProblemError {
  return new ProblemError(
    "rate_limited",
    "Checking… Too many cards were declined here lately. Try again in a minute, or switch off Wi-Fi and try again.",
    undefined,
    { "Retry-After": String(Math.max(1, Math.ceil(retryAfterS))) },
    { breaker: true },
  );
}

/**
 * @example
 * const breaker = createBreaker(config.defence.breaker, { counters, logger, onOpen: (scope) => metrics.breakerOpens.inc({ scope }) });
 * const pass = await breaker.admitCard(breakerScopes(ip, "71777/HOPE"), { human: false }); // 429 rate_limited while open
 * await breaker.recordOutcome(breakerScopes(ip, "71777/HOPE"), "declined", pass.probe);
 */
export function createBreaker(
  config: BreakerConfig,
  deps: {
    counters: Counters;
    logger: Logger;
    /** Told of each breaker that opens (the metric, the dashboard's known testers, the alert). */
    onOpen?: (kind: ScopeKind, opened: BreakerOpened) => void;
    /** Told of a BIN's breaker that opens (a tester's run: defence mode for every campaign). */
    onBinOpen?: (bin: string, figure: number) => Promise<void>;
  },
) {
  const count = deps.counters;
  const windowMs = config.windowS * 1000;
  const tokens = (scope: BreakerScope, points: number) => ({
    key: `brk-tokens:${scope}`,
    points,
    ttlMs: windowMs,
  });
  const declines = (scope: BreakerScope, points: number) => ({
    key: `brk-declines:${scope}`,
    points,
    ttlMs: windowMs,
  });
  const charges = (scope: BreakerScope, points: number) => ({
    key: `brk-charges:${scope}`,
    points,
    ttlMs: windowMs,
  });
  /** A card's tokenizations admitted in the window (`card`: its keyed hash, never its number). */
  const cardOf = (card: string, points: number) => ({ key: `brk-card:${card}`, points, ttlMs: windowMs });
  /** Cards a client sent to a campaign in the window: none yet makes a newcomer there. */
  const seen = (campaign: BreakerScope, client: BreakerScope, points: number) => ({
    key: `brk-seen:${campaign}:${client}`,
    points,
    ttlMs: windowMs,
  });
  /** Cards of a client held at a BIN's breaker, per campaign: the first counts as a decline there. */
  const held = (campaign: BreakerScope, client: BreakerScope) => ({
    key: `brk-held:${campaign}:${client}`,
    points: 1,
    ttlMs: windowMs,
  });
  /** The outcomes of the cards that came back and passed a client's or campaign's open breaker. */
  const returned = (scope: BreakerScope, outcome: "declines" | "charges", points: number) => ({
    key: `brk-returned-${outcome}:${scope}`,
    points,
    ttlMs: windowMs,
  });
  /**
   * A card at a client's or campaign's open breaker: held once (noted with when it may come back),
   * then, come back, passed while the cards that came back there are seldom declined; else an
   * ordinary card there ("breaker": its gate and budgets).
   */
  async function comesBackAt(scope: BreakerScope, back: string | undefined): Promise<"returned" | "breaker"> {
    if (!back) return "breaker";
    await holdOnce(back);
    const [declined, charged] = await count.add([
      returned(scope, "declines", 0),
      returned(scope, "charges", 0),
    ]);
    return declined!.points < RETURNED_DECLINES + RETURNED_SHARE * Math.max(0, charged!.points)
      ? "returned"
      : "breaker";
  }
  /** Holds a card the first time it meets an open breaker, and until it may come back. */
  async function holdOnce(back: string): Promise<void> {
    const noted = await count.recall(onceKey(back));
    const now = Date.now();
    if (!noted) {
      await count.remember(onceKey(back), String(now + COME_BACK_AFTER_MS), windowMs);
      const first = waiting(COME_BACK_AFTER_MS / 1000);
      firstHolds.add(first);
      throw first;
    }
    const at = Number(noted);
    if (now < at) throw waiting((at - now) / 1000);
  }
  const budgets = (scope: BreakerScope) => {
    const kind = kindOf(scope);
    if (kind === "client") return { declines: config.clientDeclines, tokens: config.clientTokens };
    if (kind === "bin") return { declines: config.binDeclines, tokens: config.binDeclines };
    return { declines: config.campaignDeclines, tokens: config.campaignTokens };
  };

  /**
   * A card held at a BIN's breaker: its client's first there counts as one decline of its
   * campaign's budget, so a tester rotating addresses opens the campaign's breaker, which then
   * holds the clients seen there before (a giving day's donors, one card each, still pass).
   */
  async function heldAtBin(scopes: BreakerScope[]): Promise<void> {
    const client = scopes.find((scope) => kindOf(scope) === "client");
    const campaign = scopes.find((scope) => kindOf(scope) === "campaign");
    if (!client || !campaign) return;
    const [first] = await count.add([held(campaign, client)]);
    if (first!.points !== 1) return;
    const [declined, charged] = await count.add([declines(campaign, 1), charges(campaign, 0)]);
    await openWhereSpent(campaign, declined!.points, charged!.points, "clients held at a BIN's breaker");
  }

  /** A card held (429): noted with when it was first held, for the staff's count of people held now. */
  async function noteHeld(card: string | undefined): Promise<void> {
    if (!card) return;
    const key = `${HELD_PREFIX}${card}`;
    const now = Date.now();
    const before = await count.recall(key);
    let first = now;
    try {
      if (before) first = Number((JSON.parse(before) as { first: number }).first) || now;
    } catch {
      // A note this code did not write: begun now.
    }
    await count.remember(key, JSON.stringify({ first, last: now }), HELD_NOTE_MS);
  }

  async function openOf(scope: BreakerScope): Promise<OpenBreaker | null> {
    const text = await count.recall(noteKey(scope));
    if (!text) return null;
    try {
      return JSON.parse(text) as OpenBreaker;
    } catch {
      return null;
    }
  }

  async function open(scope: BreakerScope, openS: number, why: string, figure: number): Promise<void> {
    const now = Date.now();
    const state: OpenBreaker = { until: now + openS * 1000, openS, openedAt: now };
    await count.remember(noteKey(scope), JSON.stringify(state), windowMs + openS * 1000);
    deps.onOpen?.(kindOf(scope), { scope, why, figure, openS, openedAt: now });
    if (kindOf(scope) === "bin") await deps.onBinOpen?.(scope.slice("bin:".length), figure);
    deps.logger.warn(
      { event: "breaker_open", scope, why, count: figure, openS },
      `circuit breaker open: ${why} over budget; cards wait ${openS} s, then one goes through as a probe`,
    );
  }

  async function close(scope: BreakerScope): Promise<void> {
    // A note cannot be deleted: an empty one for a moment reads as closed.
    await count.remember(noteKey(scope), "", 1);
    deps.logger.info({ event: "breaker_closed", scope }, "circuit breaker closed: a probe was charged");
  }

  /**
   * Whether an open breaker lets this card through: after its time, one probe each openS (the
   * first to ask, on any proxy); else it waits, or with `human` (Turnstile passed) it goes.
   */
  async function gate(
    scope: BreakerScope,
    human: boolean,
    peek = false,
  ): Promise<"closed" | "probe" | "human"> {
    const state = await openOf(scope);
    if (!state) return "closed";
    if (human) return "human";
    const now = Date.now();
    if (now < state.until) throw waiting((state.until - now) / 1000);
    const slot = Math.floor((now - state.until) / (state.openS * 1000));
    const [taken] = await count.add([
      {
        key: `brk-probe:${scope}:${state.until}:${slot}`,
        points: peek ? 0 : 1,
        ttlMs: state.openS * 1000 * 2,
      },
    ]);
    if (taken!.points === (peek ? 0 : 1)) return peek ? "closed" : "probe";
    throw waiting((state.until + (slot + 1) * state.openS * 1000 - now) / 1000);
  }

  /** The budget a scope has now: its base, and a share more for each charge in it. */
  const allowance = (base: number, charged: number) => base + config.successShare * Math.max(0, charged);

  /** Opens a scope's breaker when its declines spent its allowance, unless it is open already. */
  async function openWhereSpent(scope: BreakerScope, declined: number, charged: number, why: string) {
    if (declined >= allowance(budgets(scope).declines, charged) && !(await openOf(scope)))
      await open(scope, config.openS, why, declined);
  }

  return {
    /**
     * Before a card's tokenization: reserved against its BIN's budget in one addition in the
     * store, so that lanes sent at once each see their own count and cannot all pass its last
     * slot (`release` gives the reservation back when the card never reaches the upstream), and
     * weighed against its client's and campaign's (countToken counts it there once the upstream
     * made its token); then through every scope's breaker (a probe when one is open and its time is
     * over). A client's first card to a campaign in the window passes that campaign's open
     * breaker and its budget of declines, not its budget of tokenizations (a giving day's donors
     * give once each; a tester's addresses come again); a card that came back after its hold at a
     * client's or campaign's open breaker passes both its budgets there (a crowd's own cards in
     * flight spend the budget of tokenizations on a slow night; the cards that came back are
     * bounded by their declines, the challenge by the budget). A card tokenized again is counted
     * once. A BIN's cards in flight count as declines to come. The card that would pass a
     * budget opens that scope's breaker and waits (429 rate_limited, Retry-After), its
     * reservation given back. `human`: the request passed Turnstile; `allowed`: its client is in a
     * venue let through (its own breaker passed; its BIN's and campaign's still hold).
     */
    async admitCard(
      scopes: BreakerScope[],
      options: { human: boolean; allowed?: boolean; card?: string; form?: string },
    ): Promise<BreakerPass> {
      const client = scopes.find((scope) => kindOf(scope) === "client")!;
      const campaign = scopes.find((scope) => kindOf(scope) === "campaign");
      // A card tokenized again (its token refused card_check_required) is counted once.
      const again = options.card ? (await count.add([cardOf(options.card, 1)]))[0]!.points > 1 : false;
      // A BIN's cards are reserved as they are admitted (its lanes cannot all pass its last
      // slot); a client's and a campaign's count once the upstream made the token (countToken):
      // a crowd's cards waiting on the upstream are not yet tokens (a giving day's in flight
      // opened its campaign's breaker on PostgreSQL when they were counted from here).
      const reserve = (scope: BreakerScope) => (kindOf(scope) === "bin" && !again ? 1 : 0);
      const states = await count.add([
        ...scopes.flatMap((scope) => [tokens(scope, reserve(scope)), declines(scope, 0), charges(scope, 0)]),
        ...(campaign ? [seen(campaign, client, 1)] : []),
      ]);
      const newcomer = campaign !== undefined && states[scopes.length * 3]!.points === 1;
      const giveBack = () =>
        count.add([
          ...scopes.map((scope) => tokens(scope, -reserve(scope))),
          ...(campaign ? [seen(campaign, client, -1)] : []),
          ...(options.card ? [cardOf(options.card, -1)] : []),
        ]);
      let at: BreakerScope | undefined;
      let cameBack = false;
      try {
        const probe: BreakerScope[] = [];
        const passed: BreakerScope[] = [];
        const returnedAt: BreakerScope[] = [];
        for (const scope of scopes) {
          at = scope;
          const free = options.human || passesAllowed(scope, options);
          if (!free && kindOf(scope) !== "bin") {
            // A newcomer passes its campaign's closed breaker (its charge is not held there
            // either). At a client's or campaign's open breaker every card is held once, a
            // moment; come back, it passes while the cards that came back are seldom declined.
            const isOpen = (await openOf(scope)) !== null;
            if (
              (!isOpen && scope === campaign && newcomer) ||
              (isOpen && (await comesBackAt(scope, backOf(options))) === "returned")
            ) {
              passed.push(scope);
              if (isOpen) returnedAt.push(scope);
              cameBack ||= isOpen;
              continue;
            }
          }
          if ((await gate(scope, free)) === "probe") probe.push(scope);
        }
        for (const [index, scope] of scopes.entries()) {
          if (probe.includes(scope) || options.human || passesAllowed(scope, options)) continue;
          at = scope;
          const [pending, declined, charged] = states.slice(index * 3, index * 3 + 3).map((s) => s.points);
          const budget = budgets(scope);
          // This card would be one more tokenization not (yet) answered by a charge or a decline
          // (a BIN's pending counts it already). A newcomer is weighed against that budget alone
          // (a stockpile's are held).
          // A BIN's cards in flight count as declines to come unless its charges outnumber its declines
          // (a popular bank's BIN on a busy day has many cards in flight; a tester's run is declined).
          const inFlight = declined! >= charged! ? pending! : 0;
          const over =
            kindOf(scope) === "bin"
              ? declined! + inFlight > allowance(budget.declines, charged!)
                ? { why: "declines and cards in flight", figure: declined! + inFlight - 1 }
                : null
              : !returnedAt.includes(scope) && pending! + 1 > allowance(budget.tokens, charged!)
                ? { why: "tokenizations", figure: pending! }
                : !passed.includes(scope) && declined! >= allowance(budget.declines, charged!)
                  ? { why: "declines", figure: declined! }
                  : null;
          if (over) {
            if (!(await openOf(scope))) await open(scope, config.openS, over.why, over.figure);
            // At a client's or campaign's breaker this card is held once, as every card there is.
            const back = kindOf(scope) === "bin" ? undefined : backOf(options);
            if (back) await holdOnce(back);
            throw waiting(config.openS);
          }
        }
        return { probe, passed, ...(cameBack ? { returned: true as const } : {}) };
      } catch (error) {
        await giveBack();
        if (isWaiting(error) && !isFirstHold(error)) await noteHeld(options.card);
        if (isWaiting(error) && at && kindOf(at) === "bin") await heldAtBin(scopes);
        throw error;
      }
    },

    /**
     * A card refused before the network because its declines mounted (scrutiny.ts): one decline in
     * each of its scopes (its client, campaign and BIN), as if the network had declined it again,
     * so a tester that sends a dead number again and again is held as one whose cards the network
     * declines, its live cards with it.
     */
    async refusedDead(scopes: BreakerScope[], from: { card?: string; form?: string } = {}): Promise<void> {
      const states = await count.add(scopes.flatMap((scope) => [declines(scope, 1), charges(scope, 0)]));
      // A dead card that came back after its hold is one of the cards that came back, declined.
      const back = backOf(from);
      if (back && (await count.recall(onceKey(back))))
        await count.add(
          scopes.filter((scope) => kindOf(scope) !== "bin").map((scope) => returned(scope, "declines", 1)),
        );
      for (const [index, scope] of scopes.entries())
        await openWhereSpent(scope, states[index * 2]!.points, states[index * 2 + 1]!.points, "dead cards");
    },

    /** A card admitted that never reached the upstream (refused on its way): its reservation given back. */
    async release(scopes: BreakerScope[], card?: string): Promise<void> {
      const client = scopes.find((scope) => kindOf(scope) === "client")!;
      const campaign = scopes.find((scope) => kindOf(scope) === "campaign");
      // Its BIN's reservation was this card's alone when its card's count falls to none.
      const alone = card ? (await count.add([cardOf(card, -1)]))[0]!.points <= 0 : true;
      await count.add([
        ...scopes.map((scope) => tokens(scope, alone && kindOf(scope) === "bin" ? -1 : 0)),
        ...(campaign ? [seen(campaign, client, -1)] : []),
      ]);
    },

    /**
     * A card token the upstream made: one more tokenization not yet followed by a charge, in its
     * client's and campaign's scopes (its BIN's was reserved when it was admitted); a card
     * tokenized again (its token refused card_check_required) is counted once.
     */
    async countToken(scopes: BreakerScope[], card?: string): Promise<void> {
      const again = card ? (await count.add([cardOf(card, 0)]))[0]!.points > 1 : false;
      if (again) return;
      await count.add(scopes.filter((scope) => kindOf(scope) !== "bin").map((scope) => tokens(scope, 1)));
    },

    /**
     * Before anything else counts a card's request (its form session, its client's buckets): an
     * open breaker that would hold it holds it now, so a widget waiting through it spends nothing
     * by trying again. Takes no probe: the card the probe's turn is free for goes on to admitCard.
     */
    async peek(
      scopes: BreakerScope[],
      options: { allowed?: boolean; card?: string; form?: string } = {},
    ): Promise<void> {
      const client = scopes.find((scope) => kindOf(scope) === "client")!;
      const campaign = scopes.find((scope) => kindOf(scope) === "campaign");
      const newcomer = campaign ? (await count.add([seen(campaign, client, 0)]))[0]!.points <= 0 : false;
      const { card } = options;
      const back = backOf(options);
      for (const scope of scopes) {
        if (passesAllowed(scope, options)) continue;
        try {
          // A card is held once at a client's or campaign's open breaker here, before its form
          // session counts the tokenization (a session spent by waiting would refuse the person);
          // come back, admitCard weighs it. A newcomer passes its campaign's closed breaker.
          if (kindOf(scope) !== "bin" && back && (await openOf(scope))) {
            await holdOnce(back);
            continue;
          }
          if (scope === campaign && newcomer) continue;
          await gate(scope, false, true);
        } catch (error) {
          if (isWaiting(error) && !isFirstHold(error)) await noteHeld(card);
          if (isWaiting(error) && kindOf(scope) === "bin") await heldAtBin(scopes);
          throw error;
        }
      }
    },

    /**
     * Before a donation's charge with a token made earlier (a stockpile's): waits at an open
     * breaker unless its card is that breaker's probe, or a new probe, or `human`, or it passed
     * that breaker as a newcomer when its token was made. At a client's or campaign's breaker that
     * opened after its token was made, the charge is held once as a card is (`card`, `form`: its
     * token's), and passes when the same form sends it again while the cards that came back
     * there are seldom declined (`returned`: its outcome counts with theirs); a stockpile's
     * script, held, does not come back.
     */
    async admitCharge(
      scopes: BreakerScope[],
      options: {
        human: boolean;
        allowed?: boolean;
        probe: BreakerScope[];
        passed?: BreakerScope[];
        card?: string;
        form?: string;
      },
    ): Promise<{ probe: BreakerScope[]; returned?: true }> {
      const probe = [...options.probe];
      let cameBack = false;
      for (const scope of scopes) {
        if (probe.includes(scope) || options.passed?.includes(scope)) continue;
        const free = options.human || passesAllowed(scope, options);
        try {
          if ((await gate(scope, free)) === "probe") probe.push(scope);
        } catch (error) {
          // Held at a client's or campaign's open breaker: once, a moment (comesBackAt throws that
          // hold), then through when it comes back; else it waits for the breaker as before.
          if (!isWaiting(error) || free || kindOf(scope) === "bin") throw error;
          if ((await comesBackAt(scope, backOf(options))) !== "returned") throw error;
          cameBack = true;
        }
      }
      return { probe, ...(cameBack ? { returned: true as const } : {}) };
    },

    /**
     * A charge's outcome in each scope: a charge pays its tokenization and widens the budgets, and
     * closes a breaker it was the probe of; a decline counts against the budgets, opens a breaker
     * it was the probe of for twice as long, and opens one whose budget it spends.
     */
    async recordOutcome(
      scopes: BreakerScope[],
      outcome: "charged" | "declined",
      probe: BreakerScope[],
      cameBack = false,
    ): Promise<void> {
      if (cameBack)
        await count.add(
          scopes
            .filter((scope) => kindOf(scope) !== "bin")
            .map((scope) => returned(scope, outcome === "charged" ? "charges" : "declines", 1)),
        );
      if (outcome === "charged") {
        const states = await count.add(scopes.flatMap((scope) => [tokens(scope, -1), charges(scope, 1)]));
        for (const scope of probe) {
          // Closed with one decline of its budget left: cards flow again, and the next decline opens it.
          const charged = states[scopes.indexOf(scope) * 2 + 1]!.points;
          const left = Math.max(0, Math.ceil(allowance(budgets(scope).declines, charged)) - 1);
          await count.set([declines(scope, left)]);
          await close(scope);
        }
        return;
      }
      // A declined card's tokenization is answered: it counts as a decline now, no longer as
      // unanswered, in one addition (a BIN's budget weighs the two together).
      const states = (
        await count.add(scopes.flatMap((scope) => [tokens(scope, -1), declines(scope, 1), charges(scope, 0)]))
      ).filter((_, index) => index % 3 !== 0);
      for (const [index, scope] of scopes.entries()) {
        const [declined, charged] = [states[index * 2]!.points, states[index * 2 + 1]!.points];
        if (!probe.includes(scope)) {
          await openWhereSpent(scope, declined, charged, "declines");
          continue;
        }
        const openS = Math.min(config.windowS, ((await openOf(scope))?.openS ?? config.openS) * 2);
        await open(scope, openS, "probe declined", declined);
      }
    },

    /**
     * Whether any of these scopes has spent `share` of its budget of tokenizations not followed by a
     * charge: its cards are challenged then, so a tester that solves nothing is stopped before a
     * breaker would hold everyone there.
     */
    async pressed(scopes: BreakerScope[], share = 0.5): Promise<boolean> {
      const states = await count.add(
        scopes.flatMap((scope) => [tokens(scope, 0), declines(scope, 0), charges(scope, 0)]),
      );
      return scopes.some((scope, index) => {
        const [pending, charged] = [states[index * 3]!.points, states[index * 3 + 2]!.points];
        const budget = budgets(scope);
        // Declines are challenged by their own rules already (a client's, defence mode's).
        return pending! >= share * allowance(budget.tokens, charged!);
      });
    },

    /** The breakers open now among these scopes (the operator's status). */
    async openIn(scopes: BreakerScope[]) {
      const found = await Promise.all(scopes.map(async (scope) => ({ scope, state: await openOf(scope) })));
      return found.filter((each) => each.state !== null);
    },
  };
}

export type Breaker = ReturnType<typeof createBreaker>;
