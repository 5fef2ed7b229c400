/**
 * The field names the card frame posts to the proxy (contract/api.ts re-exports them beside the
 * schemas that read them). No zod here: the frame's script loads none.
 */

/** The honeypot field's name in the card frame and in POST /v1/payment-tokens. */
export const HONEYPOT_FIELD = "website";
/** The proof the frame sends when the proxy asked for one: a solved proof of work, or a Turnstile token. */
export const CHALLENGE_FIELD = "challenge_token";
/**
 * The card frame's form session (POST /v1/form-sessions), sent with each tokenization: the proxy
 * measures the form's time from it, so a page cannot claim one.
 */
export const FORM_SESSION_FIELD = "form_session";
