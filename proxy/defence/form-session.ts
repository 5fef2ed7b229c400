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
import type { DefenceConfig } from "../config";
import { memoryCounters } from "../store/counters";
import type { Counters } from "../store";

/** Why a tokenization's form session refuses it (the log's `filtered`). */
export type FormSessionRefusal =
  | "form_session_missing"
  | "form_session_forged"
  | "form_session_expired"
  | "form_session_spent"
  | "too_fast"
  | "card_churn";

interface Session {
  startedAt: number;
  expiresAt: number;
  id: string;
}

const MAC_BYTES = 16;
const SESSION_PATTERN = /^([0-9a-z]{1,11})\.([0-9a-z]{1,11})\.([\w-]{16})\.([\w-]{22})$/;

/**
 * @example
 * const sessions = createFormSessions(config.defence, { secret, counters: store.counters });
 * const { form_session } = sessions.issue(); // the frame keeps it
 * await sessions.check(form_session, cardKey); // null, or why it refuses ("too_fast", …)
 */
export function createFormSessions(
  config: Pick<
    DefenceConfig,
    "minFormMs" | "formSessionTtlS" | "formSessionTokenizations" | "formSessionCards"
  >,
  deps: { secret: string; counters: Counters | null; now?: () => number },
) {
  const now = deps.now ?? Date.now;
  const count = deps.counters ?? memoryCounters(now);
  // A key of its own, derived from the proxy's secret: a session is never a body fingerprint.
  const key = createHmac("sha256", deps.secret).update("givekit form sessions").digest();
  const ttlMs = config.formSessionTtlS * 1000;
  const mac = (body: string) =>
    createHmac("sha256", key).update(body).digest().subarray(0, MAC_BYTES).toString("base64url");

  function sign(session: Session): string {
    const body = `${session.startedAt.toString(36)}.${session.expiresAt.toString(36)}.${session.id}`;
    return `${body}.${mac(body)}`;
  }

  function read(
    text: unknown,
  ): Session | "form_session_missing" | "form_session_forged" | "form_session_expired" {
    if (typeof text !== "string" || text === "") return "form_session_missing";
    const match = SESSION_PATTERN.exec(text);
    if (!match) return "form_session_forged";
    const [, started, expires, id, given] = match;
    const expected = Buffer.from(mac(`${started}.${expires}.${id}`));
    if (!timingSafeEqual(expected, Buffer.from(given!))) return "form_session_forged";
    const session = { startedAt: parseInt(started!, 36), expiresAt: parseInt(expires!, 36), id: id! };
    return session.expiresAt <= now() ? "form_session_expired" : session;
  }

  return {
    /** A new session, or `renew`'s own start and id for another TTL when it is still good. */
    issue(renew?: unknown): { form_session: string; expires_in_s: number } {
      const previous = renew === undefined ? null : read(renew);
      const at = now();
      const session =
        previous !== null && typeof previous === "object"
          ? { ...previous, expiresAt: at + ttlMs }
          : { startedAt: at, expiresAt: at + ttlMs, id: randomBytes(12).toString("base64url") };
      return { form_session: sign(session), expires_in_s: config.formSessionTtlS };
    },
    /**
     * Why this tokenization's session refuses it, or null. Counts the tokenization and its card
     * (`cardKey`, a keyed hash, never the number) against the session, shared by every proxy.
     */
    async check(text: unknown, cardKey: string): Promise<FormSessionRefusal | null> {
      const session = read(text);
      if (typeof session === "string") return session;
      if (now() - session.startedAt < config.minFormMs) return "too_fast";
      const ttl = Math.max(1, session.expiresAt - now());
      const [uses, card] = await count.add([
        { key: `fs-uses:${session.id}`, points: 1, ttlMs: ttl },
        { key: `fs-card:${session.id}:${cardKey}`, points: 1, ttlMs: ttl },
      ]);
      if (uses!.points > config.formSessionTokenizations) return "form_session_spent";
      if (card!.points > 1) return null;
      const [cards] = await count.add([{ key: `fs-cards:${session.id}`, points: 1, ttlMs: ttl }]);
      return cards!.points > config.formSessionCards ? "card_churn" : null;
    },
  };
}

export type FormSessions = ReturnType<typeof createFormSessions>;
