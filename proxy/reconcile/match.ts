/**
 * Which transaction, if any, an attempt of unknown outcome became: read from the upstream's
 * transactions report, exact matches only. givekit tags every donate with its attempt's
 * reference in `source`, beside the nonprofit's channel tag when there is one (the report gives
 * it back as `api_via_givekit.<reference>` or `api_via_givekit.<tag>.<reference>`), so a tagged
 * row names its attempt outright. Rows without a reference (a donate sent before tagging, or an
 * upstream that drops the source) are matched on every field both sides hold; where they cannot
 * tell attempts apart, nothing is guessed: the attempt stays unknown for a person to decide.
 *
 * `source` is the only field of the donate that the report gives back (the memo is the donor's,
 * and event_id and form_id name the campaign), so the reference stays in it: the 64 characters
 * are split as contract/patterns.ts's CHANNEL_TAG_PATTERN says.
 */
import { toCents } from "../../contract/money";
import type { TransactionRow } from "../../contract/upstream";

/** What givekit's `source` starts with; the upstream prefixes it with `api_via_`. */
export const SOURCE_PREFIX = "givekit";

/**
 * The donate `source` that tags an attempt, with the nonprofit's channel tag if any: 1 to 64 of
 * letters, digits, `_`, `.`, `-` (a tag of at most 32, which holds no `.`, and a reference of 23).
 *
 * @example
 * donationSource("gk_0123456789abcdef0123");                // "givekit.gk_0123456789abcdef0123"
 * donationSource("gk_0123456789abcdef0123", "spring-gala"); // "givekit.spring-gala.gk_0123456789abcdef0123"
 */
export function donationSource(reference: string, channel?: string | null): string {
  return channel ? `${SOURCE_PREFIX}.${channel}.${reference}` : `${SOURCE_PREFIX}.${reference}`;
}

const UNTAGGED_SOURCE = `api_via_${SOURCE_PREFIX}`;
/** A report row's source as donationSource wrote it: the reference is after the last `.`. */
const TAGGED = /^api_via_givekit\.(?:[A-Za-z0-9_-]+\.)?([^.]+)$/;

/** The attempt's reference a report row's `source` carries, if it carries one. */
export const referenceOf = (source: string): string | undefined => TAGGED.exec(source)?.[1];

/**
 * Whether a report row can bear on these attempts at all: tagged with one of their references,
 * or an untagged givekit row. Every other row is left out as the report streams by, so a report
 * of any size costs the memory of the few rows that matter.
 */
export function mayConcern(row: TransactionRow, references: ReadonlySet<string>): boolean {
  if (row.source === UNTAGGED_SOURCE) return true;
  const reference = referenceOf(row.source);
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
    const reference = referenceOf(row.source);
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
