/**
 * How the store fails, in its own terms: nothing here knows HTTP. The proxy answers each in one
 * place (problem.ts's problemOf, from app.ts's onError); the command line names them in words.
 */

/** Every failure the store reports. */
export class StoreError extends Error {}

/** The store cannot be reached: the request did nothing and may be retried. */
export class StoreUnavailableError extends StoreError {
  constructor(readonly reason: string) {
    super(`the store cannot be reached: ${reason}`);
    this.name = "StoreUnavailableError";
  }
}

/** A claim's lease ran out before its attempt was recorded: another proxy may hold the key now. */
export class ClaimLostError extends StoreError {
  constructor() {
    super("the claim on this idempotency key ran out before its attempt was recorded");
    this.name = "ClaimLostError";
  }
}

/** The store cannot be opened: the message names the setting and the cause, never a password. */
export class StoreOpenError extends StoreError {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = "StoreOpenError";
  }
}
