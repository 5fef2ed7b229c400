/** Every error the proxy can answer with. The widget switches on these, never on text. */
export const ERROR_CODES = [
  "validation_failed",
  "malformed_json",
  "unsupported_media_type",
  "payload_too_large",
  "not_found",
  "method_not_allowed",
  /** An operator's route (GET /metrics) without its token, or with a wrong one. */
  "unauthorized",
  /** A dashboard action that needs a second confirmation naming what it overrides. */
  "confirmation_required",
  "campaign_not_served",
  /** A `form="…"` naming no saved form of that campaign. */
  "form_not_found",
  /** A saved form changed since the version a save started from (another staff member saved first). */
  "form_changed",
  "origin_not_allowed",
  "rate_limited",
  "too_many_declines",
  "challenge_required",
  "challenge_failed",
  /** A donation's card token must be made again (held too long, or made before scrutiny rose): the frame tokenizes anew, meeting the challenge there. */
  "card_check_required",
  "idempotency_key_required",
  "idempotency_key_invalid",
  "idempotency_key_reused",
  "request_in_progress",
  "consent_required",
  "card_declined",
  "payment_failed",
  "invalid_peer",
  "subscription_rejected",
  "upstream_auth_failed",
  "upstream_unavailable",
  "upstream_error",
  /** The proxy's own database cannot be reached: nothing was sent, trying again is safe. */
  "store_unavailable",
  "internal_error",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Not an answer of any server: what the widget and the card frame report (in a token-error,
 * in the `givekit:error` event) when the proxy could not be reached at all.
 */
export const UNREACHABLE = "network_error";
/** What the widget reports a failure with: a code the proxy answered, or UNREACHABLE. */
export type WidgetErrorCode = ErrorCode | typeof UNREACHABLE;

/** One of ERROR_CODES: what the widget, which parses no zod here, checks a `code` with. */
export const isErrorCode = (value: unknown): value is ErrorCode =>
  (ERROR_CODES as readonly unknown[]).includes(value);
