/**
 * Proof of a human for defence mode: a Cloudflare Turnstile token, checked by the proxy
 * against the siteverify endpoint (configurable, so tests run a local fake). A token is
 * single-use and lives five minutes; the endpoint says `timeout-or-duplicate` for one expired
 * or already used, which givekit treats like a forged one.
 */

/** The siteverify endpoint of the real service. */
export const TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** Turnstile's own limit on a token's length. */
export const TURNSTILE_TOKEN_MAX = 2048;

export type ChallengeVerdict =
  | { kind: "passed" }
  /** No proof, or one the endpoint refused (forged, expired, replayed): 403 challenge_failed. */
  | { kind: "failed"; reason: string }
  /** The endpoint could not say (down, slow, a bad answer): the caller decides, open or closed. */
  | { kind: "unavailable"; reason: string };

export interface ChallengeVerifier {
  verify(token: string | undefined, remoteIp: string): Promise<ChallengeVerdict>;
}

/**
 * @example
 * const verifier = createTurnstileVerifier({ secret, verifyUrl: TURNSTILE_VERIFY_URL, timeoutMs: 3000 });
 * const verdict = await verifier.verify(body.challenge_token, clientIp); // {kind: "passed"}
 */
export function createTurnstileVerifier(options: {
  secret: string;
  verifyUrl: string;
  timeoutMs: number;
}): ChallengeVerifier {
  return {
    async verify(token, remoteIp) {
      if (!token) return { kind: "failed", reason: "no proof sent" };
      if (token.length > TURNSTILE_TOKEN_MAX) return { kind: "failed", reason: "proof too long" };
      let answer: Response;
      try {
        answer = await fetch(options.verifyUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ secret: options.secret, response: token, remoteip: remoteIp }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : "unreachable";
        return { kind: "unavailable", reason };
      }
      const body = (await answer.json().catch(() => null)) as {
        success?: unknown;
        "error-codes"?: unknown;
      } | null;
      if (!answer.ok || !body || typeof body.success !== "boolean") {
        return { kind: "unavailable", reason: `HTTP ${answer.status}` };
      }
      if (body.success) return { kind: "passed" };
      const codes = Array.isArray(body["error-codes"]) ? body["error-codes"].map(String) : [];
      // The secret itself refused is the proxy's fault, not the donor's: say so, do not blame them.
      if (codes.some((code) => code.includes("secret") || code === "internal-error")) {
        return { kind: "unavailable", reason: codes.join(", ") };
      }
      return { kind: "failed", reason: codes.join(", ") || "refused" };
    },
  };
}
