import type { Challenge } from "../../contract/api";
import { isFilled, isFiniteNumber, isObject, oneOf, pattern, readShape } from "../shared/checks";

const HEX = pattern(/^[0-9a-f]{2,128}$/);

/** The challenge a `403 challenge_required` carries (contract/api.ts ChallengeSchema), or null. */
export const readChallenge = (body: Record<string, unknown>): Challenge | null => {
  const challenge = body.challenge;
  if (isObject(challenge) && challenge.provider === "pow") {
    const read = readShape<Challenge>(challenge, { provider: oneOf(["pow"]), signed: isFilled });
    const parameters = readShape(challenge.parameters, {
      algorithm: oneOf(["SHA-256"]),
      nonce: HEX,
      salt: HEX,
      cost: isFiniteNumber,
      keyLength: isFiniteNumber,
      keyPrefix: HEX,
    });
    return read && parameters ? ({ ...read, parameters } as Challenge) : null;
  }
  return readShape<Challenge>(challenge, {
    provider: oneOf(["turnstile"]),
    site_key: isFilled,
    script_url: isFilled,
  });
};
