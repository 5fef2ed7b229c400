/**
 * What the proxy itself did, counted for the staff dashboard's defence and health panels the way
 * the form's steps are: a count per campaign, hour, kind and label (OpsCountStore), never a
 * person, an address or a card. The call sites count with one small call each (tokens/,
 * donations/); times are kept as counts of a small fixed set of buckets, so p50 and p95 can be
 * read without keeping anyone's own time.
 */
import type { Logger } from "pino";
import type { OpsCount, OpsCountStore } from "../store";
import type { UpstreamClient } from "../upstream/client";
import { UpstreamUnreachableError } from "../upstream/errors";

const HOUR_MS = 3_600_000;

/** The kinds counted, each with what its label holds. */
export const OPS_KINDS = {
  /** A card asked to solve a challenge first (label ""). */
  challengeAsked: "challenge_asked",
  /** A challenge solved and accepted (label ""). */
  challengeSolved: "challenge_solved",
  /** The time from a challenge asked to its accepted solution (label: an MS_BUCKETS bound). */
  solveMs: "solve_ms",
  /** A card refused before the network (label: the problem code, or the bot filter's name). */
  refused: "refused",
  /** A donation that reached the card network and was declined (label ""). */
  declined: "declined",
  /** An upstream call's answer (label: "operation:class", OPS_ANSWER_CLASSES). */
  upstream: "upstream",
  /** An upstream call's time (label: an MS_BUCKETS bound). */
  upstreamMs: "upstream_ms",
} as const;
export type OpsKind = (typeof OPS_KINDS)[keyof typeof OPS_KINDS];

/** How an upstream call ended: an answer, a refusal (4xx), a failure, no connection, no usable answer to a charge. */
export const OPS_ANSWER_CLASSES = ["answered", "refused", "failed", "unreachable", "unknown"] as const;
export type OpsAnswerClass = (typeof OPS_ANSWER_CLASSES)[number];

/** The time buckets' upper bounds, in ms; a time above the last counts as "more". */
export const MS_BUCKETS = [50, 100, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000] as const;
export const MS_MORE = "more";

/** The bucket a time falls in: the first bound it does not exceed, or "more". */
export function msBucket(ms: number): string {
  const bound = MS_BUCKETS.find((b) => ms <= b);
  return bound === undefined ? MS_MORE : String(bound);
}

/**
 * The q-quantile (0..1) of bucketed times, as the upper bound of the bucket it falls in (so it
 * errs long, never short); null when nothing was counted; the last bound for "more".
 */
export function bucketQuantile(buckets: ReadonlyMap<string, number>, q: number): number | null {
  const total = [...buckets.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bound of MS_BUCKETS) {
    seen += buckets.get(String(bound)) ?? 0;
    if (seen >= rank) return bound;
  }
  return MS_BUCKETS[MS_BUCKETS.length - 1]!;
}

/** The campaign of counts that belong to the whole account (the upstream's answers). */
export const ACCOUNT = "*";

export interface OpsCounter {
  /** Counts one `kind` with `label` for this campaign (undefined: the account) now. */
  count(campaign: string | undefined, kind: OpsKind, label?: string): void;
  /** Counts a time of `kind` (solveMs, upstreamMs) in its bucket. */
  time(campaign: string | undefined, kind: OpsKind, ms: number): void;
}

/**
 * Counts written to the store, never awaited by the request that counts: those of one turn of the
 * event loop are merged and written together (a burst of donors costs the store one write, not
 * one per call). A store that fails loses those counts (logged), never a donor's answer.
 */
export function createOpsCounter(deps: {
  store: OpsCountStore;
  logger: Logger;
  now?: () => number;
}): OpsCounter {
  const now = deps.now ?? Date.now;
  let pending = new Map<string, OpsCount>();
  const flush = () => {
    const counts = [...pending.values()];
    pending = new Map();
    deps.store.addOpsCounts(counts).catch((error: unknown) =>
      deps.logger.warn(
        {
          event: "ops_count_lost",
          counts: counts.length,
          error: error instanceof Error ? error.message : "unknown",
        },
        "dashboard counts could not be written",
      ),
    );
  };
  const add = (campaign: string | undefined, kind: OpsKind, label: string) => {
    const count = { campaign: campaign ?? ACCOUNT, hour: Math.floor(now() / HOUR_MS), kind, label, count: 1 };
    const key = [count.campaign, count.hour, kind, label].join("\n");
    const before = pending.get(key);
    if (before) before.count += 1;
    else {
      if (pending.size === 0) setImmediate(flush);
      pending.set(key, count);
    }
  };
  return {
    count: (campaign, kind, label = "") => add(campaign, kind, label),
    time: (campaign, kind, ms) => add(campaign, kind, msBucket(ms)),
  };
}

/** The donor-facing upstream calls counted, by their method's name. */
const COUNTED_CALLS = ["createPaymentToken", "donate", "subscribe"] as const;

function answerClass(outcome: unknown): OpsAnswerClass {
  const kind = (outcome as { kind?: string } | null)?.kind;
  if (kind === "not_sent") return "unreachable";
  if (kind === "unknown") return "unknown";
  if (kind === "refused" || kind === "rejected") return "refused";
  return "answered";
}

/**
 * The upstream client with its donor-facing calls counted for the health panel: each answer's
 * class and time, for the whole account.
 */
export function countUpstream(upstream: UpstreamClient, ops: OpsCounter, now = Date.now): UpstreamClient {
  const counted: Partial<UpstreamClient> = {};
  for (const name of COUNTED_CALLS) {
    if (typeof upstream[name] !== "function") continue;
    const call = upstream[name].bind(upstream) as (...args: unknown[]) => Promise<unknown>;
    (counted as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const began = now();
      const done = (answer: OpsAnswerClass) => {
        ops.count(undefined, OPS_KINDS.upstream, `${name}:${answer}`);
        ops.time(undefined, OPS_KINDS.upstreamMs, now() - began);
      };
      try {
        const outcome = await call(...args);
        done(answerClass(outcome));
        return outcome;
      } catch (error) {
        done(error instanceof UpstreamUnreachableError ? "unreachable" : "failed");
        throw error;
      }
    };
  }
  return { ...upstream, ...counted };
}
