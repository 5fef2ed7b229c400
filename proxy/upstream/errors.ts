/**
 * How a call to the fundraising service fails, in the upstream's own terms: nothing here knows
 * HTTP answers. The proxy answers each in one place (problem.ts's problemOf, from app.ts's
 * onError); `givekit doctor` names the setting that fixes it. A message is givekit's own words,
 * never the upstream's text, so it may be shown as it is.
 */

/** Every failure of an upstream call. */
export class UpstreamError extends Error {}

/** No connection was made (refused, or its connect timed out): nothing reached the upstream. */
export class UpstreamUnreachableError extends UpstreamError {
  constructor(readonly reason: string) {
    super("The fundraising service cannot be reached. Nothing was sent.");
    this.name = "UpstreamUnreachableError";
  }
}

/** The upstream refused givekit's credentials: the private token's login, a fresh session, the public token. */
export class UpstreamAuthError extends UpstreamError {
  constructor(
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = "UpstreamAuthError";
  }
}

/**
 * The upstream answered what givekit cannot use (an error status, a body of another shape, one
 * too large), or did not answer in time. `httpStatus`: its status, when it answered.
 */
export class UpstreamAnswerError extends UpstreamError {
  constructor(
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = "UpstreamAnswerError";
  }
}
