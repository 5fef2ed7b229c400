/**
 * Idempotency keys, as Stripe and the IETF Idempotency-Key draft define them: one key per
 * attempt, at most 255 characters, scoped by client; the body is compared by an HMAC
 * fingerprint so the store never holds the body itself.
 */
import { createHmac } from "node:crypto";
import { IDEMPOTENCY_KEY_MAX } from "../../contract/api";
import { ProblemError } from "../problem";

// Visible ASCII: keys are opaque strings such as UUIDs.
const KEY_PATTERN = /^[\x21-\x7e]+$/;

/** The Idempotency-Key header's value, or a problem. */
export function readIdempotencyKey(header: string | undefined): string {
  if (header === undefined || header.trim() === "") {
    throw new ProblemError(
      "idempotency_key_required",
      "Send an Idempotency-Key header made once per attempt.",
    );
  }
  const key = header.trim();
  if (key.length > IDEMPOTENCY_KEY_MAX || !KEY_PATTERN.test(key)) {
    throw new ProblemError(
      "idempotency_key_invalid",
      `The key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters, such as a UUID.`,
    );
  }
  return key;
}

/** JSON with object keys sorted at every depth, so key order and spacing do not change a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).toSorted();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The body's fingerprint: HMAC-SHA256 over the endpoint and the canonical body. Keyed, so a
 * fingerprint cannot be used to guess what the body held (it holds a card token).
 *
 * @example
 * fingerprint(secret, "donations", { amount: "25" }) === fingerprint(secret, "donations", { amount: "25" }); // true
 */
export function fingerprint(secret: string, endpoint: string, body: unknown): string {
  return createHmac("sha256", secret).update(endpoint).update("\n").update(canonicalJson(body)).digest("hex");
}
