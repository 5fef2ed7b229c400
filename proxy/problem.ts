/**
 * RFC 9457 problem details with givekit's `code`. Every error answer of the proxy is built here,
 * so the status, title and code of a problem never drift apart.
 */
import type { Problem } from "../contract/error-schemas";
import { ClaimLostError, StoreUnavailableError } from "./store/errors";
import { UpstreamAnswerError, UpstreamAuthError, UpstreamUnreachableError } from "./upstream/errors";
import type { ErrorCode } from "../contract/errors";

interface ProblemKind {
  status: number;
  title: string;
}

/** One line per code: when it happens is in proxy/REFERENCE.md. */
export const PROBLEM_KINDS: Record<ErrorCode, ProblemKind> = {
  validation_failed: { status: 400, title: "Some fields are not valid." },
  malformed_json: { status: 400, title: "The body is not valid JSON." },
  unsupported_media_type: { status: 415, title: "Send the body as application/json." },
  payload_too_large: { status: 413, title: "The body is too large." },
  not_found: { status: 404, title: "Not found." },
  method_not_allowed: { status: 405, title: "Method not allowed." },
  unauthorized: { status: 401, title: "This needs a token." },
  confirmation_required: { status: 409, title: "This action needs a second confirmation." },
  campaign_not_served: { status: 404, title: "This campaign is not served here." },
  form_not_found: { status: 404, title: "No saved form of this name is served for this campaign." },
  form_changed: { status: 409, title: "The form was saved by someone else since you opened it." },
  origin_not_allowed: { status: 403, title: "This site may not use this proxy." },
  rate_limited: { status: 429, title: "Too many requests. Try again later." },
  too_many_declines: { status: 429, title: "Too many declined payments. Try again later." },
  idempotency_key_required: { status: 400, title: "An Idempotency-Key header is required." },
  idempotency_key_invalid: { status: 400, title: "The Idempotency-Key header is not valid." },
  idempotency_key_reused: { status: 422, title: "This Idempotency-Key was used for a different request." },
  request_in_progress: { status: 409, title: "A request with this Idempotency-Key is in progress." },
  consent_required: { status: 400, title: "Explicit consent is required." },
  challenge_required: { status: 403, title: "A check that you are a person is required." },
  challenge_failed: { status: 403, title: "The check that you are a person did not pass." },
  card_check_required: { status: 403, title: "The card must be checked again before this donation." },
  card_declined: { status: 402, title: "The card was declined." },
  payment_failed: { status: 502, title: "The payment could not be processed." },
  invalid_peer: { status: 400, title: "That fundraiser or team cannot receive this donation." },
  subscription_rejected: { status: 422, title: "The subscription was not accepted." },
  upstream_auth_failed: { status: 502, title: "The proxy could not sign in to the fundraising service." },
  upstream_unavailable: { status: 503, title: "The fundraising service cannot be reached. Try again." },
  upstream_error: { status: 502, title: "The fundraising service answered with an error." },
  store_unavailable: { status: 503, title: "The proxy cannot reach its database. Try again." },
  internal_error: { status: 500, title: "Something went wrong in the proxy." },
};

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** A problem to answer with; thrown or returned by routes and middleware. */
export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly errors?: Record<string, string[]>,
    readonly headers: Record<string, string> = {},
    /** More members of the body (RFC 9457 extensions), such as `challenge` on challenge_required. */
    readonly extensions?: Record<string, unknown>,
  ) {
    super(detail ?? PROBLEM_KINDS[code].title);
    this.name = "ProblemError";
    this.status = PROBLEM_KINDS[code].status;
  }
}

/** The JSON body of a problem. */
export function problemBody(
  code: ErrorCode,
  detail?: string,
  errors?: Record<string, string[]>,
  extensions?: Record<string, unknown>,
): Problem {
  const kind = PROBLEM_KINDS[code];
  const body: Problem = {
    ...extensions,
    type: `urn:givekit:problem:${code}`,
    title: kind.title,
    status: kind.status,
    code,
  };
  if (detail !== undefined) body.detail = detail;
  if (errors !== undefined) body.errors = errors;
  return body;
}

/** A complete problem+json response. */
export function problemResponse(problem: ProblemError, headers: Record<string, string> = {}): Response {
  return new Response(
    JSON.stringify(problemBody(problem.code, problem.detail, problem.errors, problem.extensions)),
    {
      status: problem.status,
      headers: { "Content-Type": PROBLEM_CONTENT_TYPE, ...problem.headers, ...headers },
    },
  );
}

/**
 * The answer to an error a route or middleware let through: a ProblemError as it is, the store's
 * and the upstream's own failures (store/errors.ts, upstream/errors.ts) as the answers they mean,
 * anything else null (a 500).
 */
export function problemOf(error: unknown): ProblemError | null {
  if (error instanceof ProblemError) return error;
  if (error instanceof StoreUnavailableError)
    return new ProblemError(
      "store_unavailable",
      "The proxy's database cannot be reached. Nothing was charged; try again.",
      undefined,
      { "Retry-After": "5" },
    );
  if (error instanceof ClaimLostError)
    return new ProblemError(
      "request_in_progress",
      "The first request with this key is still being processed.",
      undefined,
      { "Retry-After": "2" },
    );
  // The upstream's messages are givekit's own words (upstream/errors.ts), never its text.
  if (error instanceof UpstreamUnreachableError)
    return new ProblemError("upstream_unavailable", error.message);
  if (error instanceof UpstreamAuthError) return new ProblemError("upstream_auth_failed", error.message);
  if (error instanceof UpstreamAnswerError) return new ProblemError("upstream_error", error.message);
  return null;
}
