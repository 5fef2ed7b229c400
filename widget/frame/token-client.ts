import type { Challenge } from "../../contract/api";
import { CHALLENGE_FIELD, FORM_SESSION_FIELD, HONEYPOT_FIELD } from "../../contract/frame-fields";
import type { FromFrameMessage } from "../../contract/frame";
import { readFromFrameMessage } from "../shared/frame-messages";
import { readRetryAfter } from "../shared/retry-after";
import { readChallenge } from "./challenge";

/** Same origin as the frame: the proxy that served it. */
const PAYMENT_TOKENS = "/v1/payment-tokens";

export type TokenAnswer =
  | Extract<FromFrameMessage, { type: "givekit:token" }>
  | Extract<FromFrameMessage, { type: "givekit:token-error" }>;

/** What the frame sends beside the card. */
export interface TokenContext {
  /** The honeypot's value (empty for people). */
  honeypot: string;
  /** The campaign the frame was opened for, so the proxy counts its signals per campaign. */
  campaign: { shortcode: string; keyword: string } | null;
  /** The frame's form session (form-session.ts), from which the proxy times the form. */
  formSession: string | null;
  /** The page's origin the frame was opened for. */
  origin?: string;
  /** The proof of a human, when the proxy asked for one. */
  proof?: string;
}

/**
 * Posts the card to the proxy's /v1/payment-tokens (this frame's own origin) and turns the
 * answer into the message for the page: the token, brand and last four, or an error code; and,
 * on `403 challenge_required`, the challenge the proxy asks the donor to pass.
 */
export async function requestToken(
  id: string,
  card: { card_number: string; cvv: string; expiration_date: string },
  context: TokenContext,
): Promise<{ answer: TokenAnswer; challenge: Challenge | null }> {
  let response: Response;
  try {
    response = await fetch(PAYMENT_TOKENS, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      // The cheap bot filters (proxy/GUIDE.md): the honeypot, and the session the proxy times.
      body: JSON.stringify({
        ...card,
        ...context.campaign,
        ...(context.origin ? { origin: context.origin } : {}),
        [HONEYPOT_FIELD]: context.honeypot,
        ...(context.formSession ? { [FORM_SESSION_FIELD]: context.formSession } : {}),
        ...(context.proof ? { [CHALLENGE_FIELD]: context.proof } : {}),
      }),
      credentials: "omit",
    });
  } catch {
    return { answer: { type: "givekit:token-error", id, code: "network_error" }, challenge: null };
  }
  let body: Record<string, unknown> = {};
  try {
    body = { ...((await response.json()) as Record<string, unknown>) };
  } catch {
    // Not JSON: handled below like any answer without a token or a code.
  }
  // The answer is read as the message it becomes: the token, brand and last four, or a code.
  const message = readFromFrameMessage(
    response.ok
      ? { ...body, type: "givekit:token", id }
      : {
          type: "givekit:token-error",
          id,
          code: body.code,
          errors: body.errors,
          retryAfterS: readRetryAfter(response),
        },
  );
  const answer: TokenAnswer =
    message?.type === "givekit:token" || message?.type === "givekit:token-error"
      ? message
      : { type: "givekit:token-error", id, code: "upstream_error" };
  return { answer, challenge: body.code === "challenge_required" ? readChallenge(body) : null };
}
