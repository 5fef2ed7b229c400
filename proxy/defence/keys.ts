/**
 * How the defence knows a card, a token, a donor or a client: by a keyed hash under the signing
 * secret, never by the number, the token or the address itself.
 */
import { createHmac } from "node:crypto";
import type { CounterHit } from "../store";

/** A card as the signals know it: a keyed hash of its number, never the number. */
export const cardKey = (secret: string, digits: string) =>
  createHmac("sha256", secret).update(`card:${digits}`).digest("hex");

/** A card token as the notes keep it: a keyed hash, never the token. */
export const tokenKey = (secret: string, token: string) =>
  createHmac("sha256", secret).update(`token:${token}`).digest("hex");

/** A short keyed hash of anything else the signals count by (a donor, an amount, a client). */
export const keyedHash = (secret: string, label: string, value: string) =>
  createHmac("sha256", secret).update(`${label}:${value}`).digest("hex").slice(0, 32);

/**
 * The counters of a donor's and of a card's declines in the decline window: what refuses them
 * (scrutiny.ts reads them, signals.ts adds to them).
 */
export function identityDeclines(secret: string, windowMs: number) {
  return {
    donor: (email: string): Omit<CounterHit, "points"> => ({
      key: `donor-declines:${keyedHash(secret, "donor", email.trim().toLowerCase())}`,
      ttlMs: windowMs,
    }),
    card: (card: string): Omit<CounterHit, "points"> => ({
      key: `card-declines:${card.slice(0, 32)}`,
      ttlMs: windowMs,
    }),
  };
}

export type IdentityDeclines = ReturnType<typeof identityDeclines>;
