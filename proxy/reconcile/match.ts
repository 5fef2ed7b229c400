/**
 * Which transaction, if any, an attempt of unknown outcome became: read from the upstream's
 * transactions report, exact matches only. givekit tags every donate with its attempt's
 * reference in `source` (the report gives it back as `api_via_givekit.<reference>`), so a
 * tagged row names its attempt outright. Rows without a tag (a donate sent before tagging, or an
 * upstream that drops the source) are matched on every field both sides hold; where they cannot
 * tell attempts apart, nothing is guessed: the attempt stays unknown for a person to decide.
 */
import { toCents } from "../../contract/money";
import type { TransactionRow } from "../../contract/upstream";

/** What givekit sends as `source`; the upstream prefixes it with `api_via_`. */
export const SOURCE_PREFIX = "givekit";

/** The donate `source` that tags an attempt: 1 to 64 of letters, digits, `_`, `.`, `-`. */
export function donationSource(reference: string): string {
  return `${SOURCE_PREFIX}.${reference}`;
}

const UNTAGGED_SOURCE = `api_via_${SOURCE_PREFIX}`;
const TAGGED = /^api_via_givekit\.(.+)$/;

/**
 * Whether a report row can bear on these attempts at all: tagged with one of their references,
 * or an untagged givekit row. Every other row is left out as the report streams by, so a report
 * of any size costs the memory of the few rows that matter.
 */
export function mayConcern(row: TransactionRow, references: ReadonlySet<string>): boolean {
  if (row.source === UNTAGGED_SOURCE) return true;
  const reference = TAGGED.exec(row.source)?.[1];
  return reference !== undefined && references.has(reference);
}

/** What the store knows of an attempt whose outcome is unknown. */
export interface UnresolvedAttempt {
  reference: string;
  shortcode: string;
  keyword: string;
  /** What the donor was to be charged (the donation plus any covered fee), decimal string. */
  charged: string;
  /** When the attempt was recorded, just before its donate was sent (ISO 8601). */
  createdAt: string;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

export type Resolution =
  /** A collected row is this attempt's. */
  | { kind: "charged"; transactionId: string }
  /** A declined or failed row is this attempt's: nothing was charged. */
  | { kind: "refused"; status: "declined" | "failed" }
  /** No row could be this attempt's (yet). */
  | { kind: "absent" }
  /** More than one row fits, or the fitting row fits other attempts too: a person decides. */
  | { kind: "ambiguous"; why: string };

export interface MatchOptions {
  /** How long after its attempt a row may be created and still be its (the upstream's clock may lag, too). */
  windowMs: number;
  /** Transaction ids already given to an attempt: never given to a second. */
  claimed: ReadonlySet<string>;
}

/** Allowed lead of a row's time over its attempt's: the two clocks are not the same clock. */
const CLOCK_SKEW_MS = 60_000;

const same = (a: string | null | undefined, b: string | null | undefined) =>
  !a || !b || a.trim().toLowerCase() === b.trim().toLowerCase();

function fits(attempt: UnresolvedAttempt, row: TransactionRow, windowMs: number): boolean {
  const at = Date.parse(attempt.createdAt);
  const rowAt = Date.parse(row.created_at);
  return (
    row.status === "collected" &&
    row.source === UNTAGGED_SOURCE &&
    row.shortcode === attempt.shortcode &&
    row.keyword.toUpperCase() === attempt.keyword.toUpperCase() &&
    toCents(row.amount) === toCents(attempt.charged) &&
    Number.isFinite(rowAt) &&
    rowAt >= at - CLOCK_SKEW_MS &&
    rowAt <= at + windowMs &&
    same(attempt.email, typeof row.email === "string" ? row.email : null) &&
    same(attempt.firstName, row.first_name) &&
    same(attempt.lastName, row.last_name)
  );
}

/**
 * Resolves each attempt against the rows of one report.
 *
 * @example
 * const resolutions = matchAttempts(unknownAttempts, report.rows, { windowMs: 900_000, claimed });
 * resolutions.get("gk_…"); // {kind: "charged", transactionId: "txn_…"}
 */
export function matchAttempts(
  attempts: readonly UnresolvedAttempt[],
  rows: readonly TransactionRow[],
  options: MatchOptions,
): Map<string, Resolution> {
  const resolutions = new Map<string, Resolution>();
  const tagged = new Map<string, TransactionRow[]>();
  for (const row of rows) {
    const reference = TAGGED.exec(row.source)?.[1];
    if (reference) tagged.set(reference, [...(tagged.get(reference) ?? []), row]);
  }

  const untaggedAttempts: UnresolvedAttempt[] = [];
  for (const attempt of attempts) {
    const own = tagged.get(attempt.reference);
    if (!own) {
      untaggedAttempts.push(attempt);
      continue;
    }
    const collected = own.filter((row) => row.status === "collected");
    if (collected.length === 1) {
      resolutions.set(attempt.reference, { kind: "charged", transactionId: collected[0]!.transaction_id });
    } else if (collected.length > 1) {
      resolutions.set(attempt.reference, {
        kind: "ambiguous",
        why: `${collected.length} collected rows carry its reference`,
      });
    } else {
      const refused = own.find((row) => row.status === "declined" || row.status === "failed");
      resolutions.set(
        attempt.reference,
        refused ? { kind: "refused", status: refused.status as "declined" | "failed" } : { kind: "absent" },
      );
    }
  }

  // Untagged rows: an attempt and a row are each other's only when neither fits anything else.
  const candidates = new Map<string, TransactionRow[]>();
  const suitors = new Map<string, number>();
  for (const attempt of untaggedAttempts) {
    const fitting = rows.filter(
      (row) => !options.claimed.has(row.transaction_id) && fits(attempt, row, options.windowMs),
    );
    candidates.set(attempt.reference, fitting);
    for (const row of fitting) suitors.set(row.transaction_id, (suitors.get(row.transaction_id) ?? 0) + 1);
  }
  for (const attempt of untaggedAttempts) {
    const fitting = candidates.get(attempt.reference)!;
    if (fitting.length === 0) {
      resolutions.set(attempt.reference, { kind: "absent" });
    } else if (fitting.length > 1) {
      resolutions.set(attempt.reference, {
        kind: "ambiguous",
        why: `${fitting.length} untagged rows fit it`,
      });
    } else if (suitors.get(fitting[0]!.transaction_id)! > 1) {
      resolutions.set(attempt.reference, {
        kind: "ambiguous",
        why: "its one fitting row fits other attempts too",
      });
    } else {
      resolutions.set(attempt.reference, { kind: "charged", transactionId: fitting[0]!.transaction_id });
    }
  }
  return resolutions;
}
