/**
 * Solves givekit's proof-of-work challenge as the card frame does (widget/frame/pow.ts: the same
 * altcha-lib solver, with Node's SHA-256 rather than WebCrypto's), for tests and the bench whose
 * people, and determined testers, pay the work. Counts the CPU time it took.
 */
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { PowChallenge } from "../../contract/api";

/** CPU seconds spent solving, and how many were solved: every call's, or one tester's. */
export interface SolveTally {
  cpuS: number;
  count: number;
}
export const solved: SolveTally = { cpuS: 0, count: 0 };

export async function solvePow(challenge: PowChallenge, tally: SolveTally = solved): Promise<string> {
  const began = process.cpuUsage();
  // No time limit of the solver's own (90 s): hundreds of people solving at once in one test
  // process on a loaded machine take longer, and the proxy, not the solver, says when a proof is too old.
  const solution = await solveChallenge({
    challenge: { parameters: challenge.parameters },
    deriveKey,
    timeout: 0,
  });
  const spent = process.cpuUsage(began);
  tally.cpuS += (spent.user + spent.system) / 1e6;
  tally.count++;
  if (!solution) throw new Error("no solution");
  return `${challenge.signed}~${solution.counter}~${solution.derivedKey}`;
}
