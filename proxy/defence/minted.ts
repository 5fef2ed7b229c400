/**
 * What the proxy remembers of each card token it minted, shared by every proxy on the store:
 * when, under which challenge level, in which form session, for which card. A donation's charge
 * is gated by it (scrutiny.ts: the hold time, the level); a decline finds its card and session by it.
 */
import type { Counters } from "../store";
import { tokenKey } from "./keys";

const MINUTE_MS = 60_000;

/** What the proxy remembers of a card token it minted (the store's notes, for the hold time). */
export interface MintedToken {
  mintedAt: number;
  /** The challenge level it was made under; null: it met none. */
  proven: number | null;
  session: string | null;
  card: string;
  /** The scopes whose open breaker let it through as their probe (breaker.ts); none: an ordinary card. */
  probe?: string[];
  /** The scopes whose open breaker let it pass as a client's first card there (breaker.ts). */
  passed?: string[];
  /** It came back after its hold and passed its campaign's open breaker (breaker.ts): its outcome counts there. */
  returned?: true;
  /** Its card's BIN (the first six digits, never more): its breaker's scope. */
  bin?: string;
  /** It passed Turnstile, which lets a card through an open breaker. */
  human?: boolean;
}

/**
 * @example
 * const minted = createMintedTokens({ counters, secret, holdS: 900 });
 * await minted.remember(token, { mintedAt: Date.now(), proven: null, session: null, card });
 * (await minted.recall(token))?.card;
 */
export function createMintedTokens(deps: { counters: Counters; secret: string; holdS: number }) {
  return {
    /** Remembers a token just minted for its hold time (and a minute); rejects when the store does. */
    remember: (token: string, facts: MintedToken) =>
      deps.counters.remember(
        `minted:${tokenKey(deps.secret, token)}`,
        JSON.stringify(facts),
        deps.holdS * 1000 + MINUTE_MS,
      ),
    /** What this proxy (or another on the same store) minted under this token, or null. */
    async recall(token: string): Promise<MintedToken | null> {
      const text = await deps.counters.recall(`minted:${tokenKey(deps.secret, token)}`).catch(() => null);
      if (!text) return null;
      try {
        return JSON.parse(text) as MintedToken;
      } catch {
        return null;
      }
    },
  };
}

export type MintedTokens = ReturnType<typeof createMintedTokens>;
