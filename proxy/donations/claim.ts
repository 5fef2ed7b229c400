/**
 * A donation's Idempotency-Key, on any number of proxies sharing a store. The one place that
 * reads the header: `requireKey()` before the body is read (without a key nothing else
 * matters), then `claimKey()` once the schema has read the body (an invalid request claims
 * nothing) and before anything else weighs it (the campaign's rules, the defence, the client's
 * limits: a replay is its first answer whatever holds now): it claims the key atomically, replays
 * a finished donation from its attempt's state (answer.ts), answers 422 for another body and 409
 * (with Retry-After) while the first runs, and frees a claim whose request never got as far as
 * recording an attempt (refused by the campaign's rules, the defence or a limit).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { fingerprint, readIdempotencyKey } from "./idempotency";
import { ProblemError } from "../problem";
import type {
  AttemptOutcome,
  AttemptStore,
  Claim,
  IdempotencyStore,
  NewAttempt,
  OutboxEvent,
} from "../store";
import { donationAnswer } from "./answer";

/** How long a client should wait before asking again about a key still in flight, in seconds. */
const IN_FLIGHT_RETRY_AFTER_S = "2";
const ENDPOINT = "donations";

/** The claim a donation runs under, and what its attempt does with it. */
export interface ClaimHandle {
  claim: Claim;
  key: string;
  scope: string;
  fingerprint: string;
  /** Records the attempt (durably) before anything is sent upstream. */
  begin(attempt: NewAttempt): Promise<void>;
  /** Records what came back, with its webhook events (same transaction); the key then replays it. */
  finish(reference: string, outcome: AttemptOutcome, events?: readonly OutboxEvent[]): Promise<void>;
  /** Nothing reached the upstream: the attempt is `not_sent` and the key may be retried. */
  abandon(reference: string): Promise<void>;
}

/** What a claim needs of the store: its key, and its attempt's record. */
export type ClaimStore = Pick<IdempotencyStore, "claimKey" | "releaseKey"> &
  Pick<AttemptStore, "startAttempt" | "finishAttempt" | "abandonAttempt">;

export type ClaimEnv = AppEnv & {
  Variables: AppEnv["Variables"] & { idempotencyKey: string; claim: ClaimHandle };
};

/** The idempotency scope: keys of one site never meet keys of another. */
function clientScope<E extends AppEnv>(c: Context<E>): string {
  return `origin:${c.req.header("origin") ?? "none"}`;
}

/** Reads and checks the Idempotency-Key header (400 without a good one), for claimKey(). */
export function requireKey(): MiddlewareHandler<ClaimEnv> {
  return async (c, next) => {
    c.set("idempotencyKey", readIdempotencyKey(c.req.header("idempotency-key")));
    await next();
  };
}

/**
 * Runs after the body is parsed and checked.
 *
 * @example
 * app.post("/v1/donations", requireKey(), jsonBody(), readDonation, claimKey({ store, secret }), checksThenAttempt);
 */
export function claimKey(options: { store: ClaimStore; secret: string }): MiddlewareHandler<ClaimEnv> {
  const { store } = options;
  return async (c, next) => {
    const key = c.get("idempotencyKey");
    const scope = clientScope(c);
    const print = fingerprint(options.secret, ENDPOINT, c.get("body"));
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

    const result = await timed(() => store.claimKey({ scope, key, endpoint: ENDPOINT, fingerprint: print }));
    if (result.kind === "replay") {
      log({ idempotency: "replayed", reference: result.attempt.reference });
      const replay = donationAnswer(result.attempt);
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
    // Once an attempt may exist, the claim is never simply freed: its lease decides.
    let begun = false;
    c.set("claim", {
      claim,
      key,
      scope,
      fingerprint: print,
      begin(attempt) {
        begun = true;
        return timed(() => store.startAttempt(claim, attempt));
      },
      finish: (reference, outcome, events) => timed(() => store.finishAttempt(reference, outcome, events)),
      abandon: (reference) => timed(() => store.abandonAttempt(claim, reference)),
    });
    try {
      await next();
    } finally {
      if (!begun) {
        // Refused before any attempt (the defence, a limit): the same key may simply be retried. If the
        // store is out of reach, the claim's lease frees it.
        await timed(() => store.releaseKey(claim)).catch(() => log({ release: "failed" }));
      }
    }
  };
}
