import type { Challenge } from "../../contract/api";
import { isFilled, oneOf, readShape } from "../shared/checks";

/** The challenge a `403 challenge_required` carries (contract/api.ts ChallengeSchema), or null. */
export const readChallenge = (body: Record<string, unknown>): Challenge | null =>
  readShape<Challenge>(body.challenge, {
    provider: oneOf(["turnstile"]),
    site_key: isFilled,
    script_url: isFilled,
  });
