import { FORM_TIME_FIELD, HONEYPOT_FIELD } from "../../contract/api";
import type { FromFrameMessage } from "../../contract/frame";
import { readFromFrameMessage } from "../shared/frame-messages";

/** Same origin as the frame: the proxy that served it. */
const PAYMENT_TOKENS = "/v1/payment-tokens";

type TokenAnswer =
  | Extract<FromFrameMessage, { type: "givekit:token" }>
  | Extract<FromFrameMessage, { type: "givekit:token-error" }>;

/**
 * Posts the card to the proxy's /v1/payment-tokens (this frame's own origin) and turns the
 * answer into the message for the page: the token, brand and last four, or an error code.
 */
export async function requestToken(
  id: string,
  card: { card_number: string; cvv: string; expiration_date: string },
  honeypot: string,
): Promise<TokenAnswer> {
  let response: Response;
  try {
    response = await fetch(PAYMENT_TOKENS, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      // The cheap bot filters (proxy/README.md): the honeypot, and how long this frame has been open.
      body: JSON.stringify({
        ...card,
        [HONEYPOT_FIELD]: honeypot,
        [FORM_TIME_FIELD]: Math.round(performance.now()),
      }),
      credentials: "omit",
    });
  } catch {
    return { type: "givekit:token-error", id, code: "network_error" };
  }
  let body: Record<string, unknown> = {};
  try {
    body = { ...((await response.json()) as Record<string, unknown>) };
  } catch {
    // Not JSON: handled below like any answer without a token or a code.
  }
  // The answer is read as the message it becomes: the token, brand and last four, or a code.
  const message = readFromFrameMessage(
    response.ok ? { ...body, type: "givekit:token", id } : { ...body, type: "givekit:token-error", id },
  );
  return message?.type === "givekit:token" || message?.type === "givekit:token-error"
    ? message
    : { type: "givekit:token-error", id, code: "upstream_error" };
}
