import * as z from "zod/mini";

/** Every error the proxy can answer with. The widget switches on these, never on text. */
export const ERROR_CODES = [
  "validation_failed",
  "malformed_json",
  "unsupported_media_type",
  "payload_too_large",
  "not_found",
  "method_not_allowed",
  "campaign_not_served",
  "origin_not_allowed",
  "rate_limited",
  "too_many_declines",
  "challenge_required",
  "challenge_failed",
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

export const ErrorCodeSchema = /* @__PURE__ */ z.enum(ERROR_CODES);

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

/** RFC 9457 problem details, with givekit's `code` and per-field `errors`. */
export const ProblemSchema = /* @__PURE__ */ z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  detail: z.optional(z.string()),
  code: ErrorCodeSchema,
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type Problem = z.infer<typeof ProblemSchema>;

/** Turns zod issues into `errors`: dotted field path → messages ("" for the whole body). */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  // A Map, so a field named "__proto__" is just a name.
  const errors = new Map<string, string[]>();
  for (const issue of issues) {
    const paths =
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => [...issue.path, key].join("."))
        : [issue.path.join(".")];
    for (const path of paths) {
      const message = issue.code === "unrecognized_keys" ? "Unknown field." : issue.message;
      errors.set(path, [...(errors.get(path) ?? []), message]);
    }
  }
  return Object.fromEntries(errors);
}
