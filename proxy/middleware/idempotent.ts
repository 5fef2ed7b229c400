/**
 * The Idempotency-Key protocol as one middleware, on any number of proxies sharing a store:
 * claims the key atomically, replays a finished request from its attempt's state, answers 422
 * for another body and 409 (with Retry-After) while the first runs, and frees a claim whose
 * request never got as far as recording an attempt.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { fingerprint, readIdempotencyKey } from "../idempotency";
import { ProblemError } from "../problem";
import type { AttemptOutcome, AttemptRecord, Claim, NewAttempt, Store } from "../store";

/** How long a client should wait before asking again about a key still in flight, in seconds. */
const IN_FLIGHT_RETRY_AFTER_S = "2";

/** What the route does with the claim it was given. */
export interface IdempotencyHandle {
  claim: Claim;
  key: string;
  scope: string;
  fingerprint: string;
  /** Records the attempt (durably) before anything is sent upstream. */
  begin(attempt: NewAttempt): Promise<void>;
  /** Records what came back; the key then replays it. */
  finish(reference: string, outcome: AttemptOutcome): Promise<void>;
  /** Nothing reached the upstream: the attempt is `not_sent` and the key may be retried. */
  abandon(reference: string): Promise<void>;
}

export type IdempotentEnv = AppEnv & { Variables: AppEnv["Variables"] & { idempotency: IdempotencyHandle } };

/** The idempotency scope: keys of one site never meet keys of another. */
export function clientScope<E extends AppEnv>(c: Context<E>): string {
  return `origin:${c.req.header("origin") ?? "none"}`;
}

export interface IdempotentOptions {
  store: Store;
  /** Key of the body fingerprint HMAC, the same on every proxy. */
  secret: string;
  endpoint: string;
  /** The answer a finished attempt gives, first and on every replay. */
  answer(attempt: AttemptRecord): Response;
}

/**
 * Runs after the body is parsed and checked (an invalid request claims nothing).
 *
 * @example
 * app.post("/v1/donations", jsonBody(), checkDonation, idempotent({ store, secret, endpoint: "donations", answer }), handler);
 */
export function idempotent(options: IdempotentOptions): MiddlewareHandler<IdempotentEnv> {
  return async (c, next) => {
    const key = readIdempotencyKey(c.req.header("idempotency-key"));
    const scope = clientScope(c);
    const print = fingerprint(options.secret, options.endpoint, c.get("body"));
    const log = (fields: Record<string, string | number>) =>
      c.set("logFields", { ...c.get("logFields"), ...fields });
    // Time spent waiting for the store, for the log line (the benchmark's "database share").
    let storeMs = 0;
    async function timed<T>(work: () => Promise<T>): Promise<T> {
      const started = performance.now();
      try {
        return await work();
      } finally {
        storeMs += performance.now() - started;
        log({ storeMs: Math.round(storeMs * 10) / 10 });
      }
    }

    const result = await timed(() =>
      options.store.claimKey({ scope, key, endpoint: options.endpoint, fingerprint: print }),
    );
    if (result.kind === "replay") {
      log({ idempotency: "replayed", reference: result.attempt.reference });
      const replay = options.answer(result.attempt);
      replay.headers.set("Idempotent-Replayed", "true");
      return replay;
    }
    if (result.kind === "mismatch") {
      throw new ProblemError(
        "idempotency_key_reused",
        "This key was already used with a different body. Make a new key.",
      );
    }
    if (result.kind === "in_flight") {
      throw new ProblemError(
        "request_in_progress",
        "The first request with this key is still being processed.",
        undefined,
        { "Retry-After": IN_FLIGHT_RETRY_AFTER_S },
      );
    }

    const { claim } = result;
    const store = options.store;
    // Once an attempt may exist, the claim is never simply freed: its lease decides.
    let begun = false;
    c.set("idempotency", {
      claim,
      key,
      scope,
      fingerprint: print,
      begin(attempt) {
        begun = true;
        return timed(() => store.startAttempt(claim, attempt));
      },
      finish: (reference, outcome) => timed(() => store.finishAttempt(reference, outcome)),
      abandon: (reference) => timed(() => store.abandonAttempt(claim, reference)),
    });
    try {
      await next();
    } finally {
      if (!begun) {
        // Refused before any attempt (a rate limit): the same key may simply be retried. If the
        // store is out of reach, the claim's lease frees it.
        await timed(() => store.releaseKey(claim)).catch(() => log({ release: "failed" }));
      }
    }
  };
}
