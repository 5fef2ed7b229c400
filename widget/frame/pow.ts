/**
 * givekit's own challenge, solved in the frame: a chunk of its own, fetched only when the proxy
 * asks (like Turnstile's). altcha-lib's solver with WebCrypto's SHA-256, the same scheme the
 * proxy checks with altcha-lib; on the main thread, yielding as it goes, so the frame stays live.
 */
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/sha";
import type { PowChallenge } from "../../contract/api";

/** A phone that has not solved by then is told so plainly: it may try again, nothing was charged. */
export const SOLVE_TIMEOUT_MS = 20_000;

/**
 * Finds the counter and key the challenge asks for; resolves with the proof the proxy reads
 * (`signed~counter~key`), rejects when this device took too long.
 *
 * @example
 * const proof = await solvePow(challenge);
 */
export async function solvePow(challenge: PowChallenge, timeoutMs = SOLVE_TIMEOUT_MS): Promise<string> {
  const solution = await solveChallenge({
    challenge: { parameters: challenge.parameters },
    deriveKey,
    timeout: timeoutMs,
  });
  if (!solution) throw new Error("too slow");
  return `${challenge.signed}~${solution.counter}~${solution.derivedKey}`;
}
