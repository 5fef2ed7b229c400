/**
 * Form sessions: the form's time measured by the proxy, not claimed by the page. The card frame
 * asks for one when it opens (POST /v1/form-sessions) and sends it with each tokenization; the
 * session says, under an HMAC only the proxies can make, when it began and until when it holds.
 * A tokenization sooner than minFormMs after its session began, with no session, a forged or
 * expired one, one spent on too many tokenizations, or one that has tried too many cards, is a
 * bot's: refused like a decline, nothing sent upstream. The frame renews its session while it is
 * open (the start stays), so a donor who takes an hour is not turned away.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { rateLimitKey } from "../client-ip";
import type { DefenceConfig } from "../config";
import { memoryCounters } from "../store/counters";
import type { Counters } from "../store";

/** Why a tokenization's form session refuses it (the log's `filtered`). */
export type FormSessionRefusal =
  | "form_session_missing"
  | "form_session_forged"
  | "form_session_expired"
  | "form_session_spent"
  | "form_session_blocked"
  | "too_fast"
  | "card_churn";

/** What a session was minted for, signed into it: renewals keep it. */
interface Binding {
  /** A keyed tag of the client (its rate-limit key) that asked for it. */
  client: string;
  /** The campaign's defence scope ("71777/HOPE"), or "" when the frame named none. */
  campaign: string;
  /** Minted while its client was minting many: every tokenization with it is challenged. */
  bulk: boolean;
  /** The page's origin the frame was opened for, or "" when it named none. */
  origin: string;
}

interface Session extends Binding {
  startedAt: number;
  expiresAt: number;
  id: string;
}

/** What a tokenization learns of its session besides whether it refuses. */
export interface SessionFacts {
  id: string;
  campaign: string;
  bulk: boolean;
  /** The page's origin it was minted for ("" for none). */
  origin: string;
  /** Asked for by another client than the one now sending the card (people roam: challenged, not refused). */
  foreign: boolean;
}

const MAC_BYTES = 16;
const SESSION_PATTERN = /^([0-9a-z]{1,11})\.([0-9a-z]{1,11})\.([\w-]{16})\.([\w-]{1,1000})\.([\w-]{22})$/;
/** A session's counts last as long as it may be renewed: renewing never gives them back. */
const RENEWALS = 4;

/**
 * @example
 * const sessions = createFormSessions(config.defence, { secret, counters: store.counters });
 * const { form_session } = await sessions.issue(undefined, { ip, campaign: "71777/HOPE" }); // the frame keeps it
 * await sessions.check(form_session, cardKey, ip); // null, or why it refuses ("too_fast", …)
 */
export function createFormSessions(
  config: Pick<
    DefenceConfig,
    "minFormMs" | "formSessionTtlS" | "formSessionTokenizations" | "formSessionCards" | "formSessionBulk"
  >,
  deps: { secret: string; counters: Counters | null; now?: () => number },
) {
  const now = deps.now ?? Date.now;
  const count = deps.counters ?? memoryCounters(now);
  // A key of its own, derived from the proxy's secret: a session is never a body fingerprint.
  const key = createHmac("sha256", deps.secret).update("givekit form sessions").digest();
  const ttlMs = config.formSessionTtlS * 1000;
  const lifeMs = ttlMs * RENEWALS;
  const mac = (body: string) =>
    createHmac("sha256", key).update(body).digest().subarray(0, MAC_BYTES).toString("base64url");
  const clientTag = (ip: string | undefined) =>
    ip === undefined ? "" : mac(`client:${rateLimitKey(ip)}`).slice(0, 11);

  function sign(session: Session): string {
    const binding = Buffer.from(
      JSON.stringify({ c: session.client, k: session.campaign, b: session.bulk ? 1 : 0, o: session.origin }),
    ).toString("base64url");
    const body = `${session.startedAt.toString(36)}.${session.expiresAt.toString(36)}.${session.id}.${binding}`;
    return `${body}.${mac(body)}`;
  }

  function read(
    text: unknown,
  ): Session | "form_session_missing" | "form_session_forged" | "form_session_expired" {
    if (typeof text !== "string" || text === "") return "form_session_missing";
    const match = SESSION_PATTERN.exec(text);
    if (!match) return "form_session_forged";
    const [, started, expires, id, binding, given] = match;
    const expected = Buffer.from(mac(`${started}.${expires}.${id}.${binding}`));
    if (!timingSafeEqual(expected, Buffer.from(given!))) return "form_session_forged";
    let bound: { c?: unknown; k?: unknown; b?: unknown; o?: unknown };
    try {
      bound = JSON.parse(Buffer.from(binding!, "base64url").toString("utf8")) as typeof bound;
    } catch {
      return "form_session_forged";
    }
    const session: Session = {
      startedAt: parseInt(started!, 36),
      expiresAt: parseInt(expires!, 36),
      id: id!,
      client: typeof bound.c === "string" ? bound.c : "",
      campaign: typeof bound.k === "string" ? bound.k : "",
      bulk: bound.b === 1,
      origin: typeof bound.o === "string" ? bound.o : "",
    };
    return session.expiresAt <= now() ? "form_session_expired" : session;
  }

  /** How long a session's counts must last from now: to the end of its last possible renewal. */
  const countsTtl = (session: Session) => Math.max(1, session.startedAt + lifeMs - now());

  return {
    /**
     * A new session bound to its client and campaign, or `renew`'s own start, id and binding for
     * another TTL while it is still good and within its renewals. A client minting more than
     * formSessionBulk in a TTL gets sessions marked bulk: each of their cards is challenged.
     */
    async issue(
      renew?: unknown,
      bind: { ip?: string; campaign?: string; origin?: string } = {},
    ): Promise<{ form_session: string; expires_in_s: number }> {
      const previous = renew === undefined ? null : read(renew);
      const at = now();
      if (previous !== null && typeof previous === "object" && at + ttlMs <= previous.startedAt + lifeMs)
        return {
          form_session: sign({ ...previous, expiresAt: at + ttlMs }),
          expires_in_s: config.formSessionTtlS,
        };
      const client = clientTag(bind.ip);
      const [minted] = client
        ? await count.add([{ key: `fs-minted:${client}`, points: 1, ttlMs }])
        : [{ points: 0 }];
      const session: Session = {
        startedAt: at,
        expiresAt: at + ttlMs,
        id: randomBytes(12).toString("base64url"),
        client,
        campaign: bind.campaign ?? "",
        bulk: minted!.points > config.formSessionBulk,
        origin: bind.origin ?? "",
      };
      return { form_session: sign(session), expires_in_s: config.formSessionTtlS };
    },
    /** The session's binding, as the defence weighs a tokenization; null when it is no good session. */
    facts(text: unknown, ip?: string): SessionFacts | null {
      const session = read(text);
      if (typeof session === "string") return null;
      return {
        id: session.id,
        campaign: session.campaign,
        bulk: session.bulk,
        origin: session.origin,
        foreign: session.client !== "" && ip !== undefined && session.client !== clientTag(ip),
      };
    },
    /**
     * Why this tokenization's session refuses it, or null. Counts the tokenization and its card
     * (`cardKey`, a keyed hash, never the number) against the session, shared by every proxy,
     * for the session's whole life (renewals included).
     */
    async check(text: unknown, cardKey: string): Promise<FormSessionRefusal | null> {
      const session = read(text);
      if (typeof session === "string") return session;
      if (now() - session.startedAt < config.minFormMs) return "too_fast";
      const ttl = countsTtl(session);
      const [uses, card, blocked] = await count.add([
        { key: `fs-uses:${session.id}`, points: 1, ttlMs: ttl },
        { key: `fs-card:${session.id}:${cardKey}`, points: 1, ttlMs: ttl },
        { key: `fs-declines:${session.id}`, points: 0, ttlMs: ttl },
      ]);
      if (blocked!.points >= config.formSessionCards) return "form_session_blocked";
      if (uses!.points > config.formSessionTokenizations) return "form_session_spent";
      if (card!.points > 1) return null;
      const [cards] = await count.add([{ key: `fs-cards:${session.id}`, points: 1, ttlMs: ttl }]);
      return cards!.points > config.formSessionCards ? "card_churn" : null;
    },
    /**
     * A tokenization `check` counted that was then answered with a wait or a challenge, never
     * reaching the upstream: its use is given back, so a donor held at a breaker, or asked to
     * prove, who comes back as the widget does never spends the session by waiting.
     */
    async giveBack(text: unknown): Promise<void> {
      const session = read(text);
      if (typeof session === "string") return;
      await count.add([{ key: `fs-uses:${session.id}`, points: -1, ttlMs: countsTtl(session) }]);
    },
    /** How long from now whatever is counted against this session must be kept: to the end of its last renewal (0: no good session). */
    lifeLeftMs(text: unknown): number {
      const session = read(text);
      return typeof session === "string" ? 0 : countsTtl(session);
    },
    /** A donation made with a card from this session was declined: enough of them block the session. */
    async recordDecline(sessionId: string): Promise<void> {
      await count.add([{ key: `fs-declines:${sessionId}`, points: 1, ttlMs: lifeMs }]);
    },
  };
}

export type FormSessions = ReturnType<typeof createFormSessions>;
