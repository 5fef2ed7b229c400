/**
 * givekit's own challenge: a proof of work the card frame solves (the ALTCHA v2 scheme with
 * SHA-256, made and checked by altcha-lib), signed by the proxy, bound to one form session and
 * one difficulty, single use across every proxy (the store's counters), and short-lived. A
 * person's phone pays it once in well under a second; a card tester pays it on every card.
 */
import { createHmac, randomInt } from "node:crypto";
import { createChallenge, verifySolution, type Challenge as AltchaChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { PowChallenge } from "../../contract/api";
import { CHALLENGE_PROOF_MAX } from "../../contract/api";
import { memoryCounters } from "../store/counters";
import type { Counters } from "../store";

/** What a proof is worth: passed, or why not (the log's `challenge`). */
export type PowVerdict =
  | { kind: "passed"; level: number }
  | { kind: "failed"; reason: "malformed" | "forged" | "expired" | "replayed" | "foreign" | "wrong" }
  /** Solved, but for a lower difficulty than is asked now: a new challenge, not an error. */
  | { kind: "too_easy"; level: number };

export interface PowConfig {
  /** Mean SHA-256 hashes a level-0 challenge costs (it doubles with each level). */
  work: number;
  /** The highest level defence mode's evidence raises a challenge to (a client's own declines go past it). */
  maxLevel: number;
  /** How long a challenge may be solved and sent back, in seconds. */
  ttlS: number;
}

/** The proof's parts: the signed challenge, the counter found, the key it gave. */
const PROOF_PATTERN = /^([\w-]{20,3000})~(\d{1,10})~([0-9a-f]{16,128})$/;

/**
 * @example
 * const pow = createPow(config, { secret, counters: store.counters });
 * const challenge = await pow.issue("form-session-id", 1); // sent with 403 challenge_required
 * await pow.verify(proof, "form-session-id", 1); // { kind: "passed", level: 1 }
 */
export function createPow(config: PowConfig, deps: { secret: string; counters: Counters | null }) {
  const count = deps.counters ?? memoryCounters();
  // Keys of their own, derived from the proxy's secret.
  const derive = (label: string) => createHmac("sha256", deps.secret).update(label).digest("hex");
  const signatureSecret = derive("givekit challenge signatures");
  const keySignatureSecret = derive("givekit challenge keys");

  /**
   * The counter the solver must reach: about `work << level` hashes, at random in its upper half.
   * The level is not capped here (a client's declines raise it past maxLevel, scrutiny.ts); the
   * counter only stays within what randomInt can draw.
   */
  const counterFor = (level: number) => {
    const top = Math.min(2 ** 47, Math.max(2, config.work * 2 ** level * (4 / 3)));
    return randomInt(Math.floor(top / 2), Math.ceil(top));
  };

  return {
    maxLevel: config.maxLevel,
    /** A challenge for this form session (or client) at this difficulty. */
    async issue(bound: string, level: number): Promise<PowChallenge> {
      const challenge = await createChallenge({
        algorithm: "SHA-256",
        cost: 1,
        counter: counterFor(level),
        deriveKey,
        expiresAt: new Date(Date.now() + config.ttlS * 1000),
        // `at`: when it was asked, so the dashboard can count what solving it cost (proofAskedAt).
        data: { bound, level, at: Date.now() },
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySignatureSecret,
      });
      const { algorithm, nonce, salt, cost, keyLength, keyPrefix } = challenge.parameters;
      return {
        provider: "pow",
        parameters: { algorithm: algorithm as "SHA-256", nonce, salt, cost, keyLength, keyPrefix },
        signed: Buffer.from(JSON.stringify(challenge)).toString("base64url"),
      };
    },
    /** Checks a proof made for `bound` at `level` or above; each signed challenge passes once. */
    async verify(proof: string, bound: string, level: number): Promise<PowVerdict> {
      const match = proof.length <= CHALLENGE_PROOF_MAX ? PROOF_PATTERN.exec(proof) : null;
      if (!match) return { kind: "failed", reason: "malformed" };
      let challenge: AltchaChallenge;
      try {
        challenge = JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8")) as AltchaChallenge;
        if (typeof challenge?.parameters !== "object" || challenge.parameters === null) throw new Error();
      } catch {
        return { kind: "failed", reason: "malformed" };
      }
      const result = await verifySolution({
        challenge,
        deriveKey,
        solution: { counter: Number(match[2]), derivedKey: match[3]! },
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySignatureSecret,
      }).catch(() => null);
      if (!result || result.invalidSignature) return { kind: "failed", reason: "forged" };
      if (result.expired) return { kind: "failed", reason: "expired" };
      if (!result.verified) return { kind: "failed", reason: "wrong" };
      const data = challenge.parameters.data ?? {};
      if (data.bound !== bound) return { kind: "failed", reason: "foreign" };
      const solved = typeof data.level === "number" ? data.level : -1;
      // Once per signed challenge, on every proxy, for as long as it could be sent.
      const [uses] = await count.add([
        { key: `pow-used:${challenge.signature}`, points: 1, ttlMs: config.ttlS * 1000 },
      ]);
      if (uses!.points > 1) return { kind: "failed", reason: "replayed" };
      if (solved < level) return { kind: "too_easy", level: solved };
      return { kind: "passed", level: solved };
    },
  };
}

export type Pow = ReturnType<typeof createPow>;

/**
 * When the challenge a proof solves was asked (ms since the epoch), or null. Read only from a
 * proof that passed verify: its challenge is signed, so the time is the proxy's own.
 */
export function proofAskedAt(proof: string): number | null {
  const match = PROOF_PATTERN.exec(proof);
  if (!match) return null;
  try {
    const challenge = JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8")) as AltchaChallenge;
    const at = challenge.parameters?.data?.at;
    return typeof at === "number" ? at : null;
  } catch {
    return null;
  }
}
