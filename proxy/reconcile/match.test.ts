import { describe, expect, it } from "vitest";
import { reportRow } from "../../test/helpers/fake-upstream";
import { CHANNEL_TAG_PATTERN, REFERENCE_PATTERN } from "../../contract/patterns";
import { UPSTREAM_ID_PATTERN } from "../../contract/upstream";
import { donationSource, matchAttempts, mayConcern, type UnresolvedAttempt } from "./match";

const AT = "2026-11-23T10:00:00.000Z";
const WINDOW = { windowMs: 15 * 60_000, claimed: new Set<string>() };

function attempt(reference: string, fields: Partial<UnresolvedAttempt> = {}): UnresolvedAttempt {
  return {
    reference,
    shortcode: "71777",
    keyword: "HOPE",
    charged: "25.00",
    createdAt: AT,
    email: "ana@example.org",
    firstName: "Ana",
    lastName: "Doe",
    ...fields,
  };
}

const row = (id: string, fields: Parameters<typeof reportRow>[0] = {}) =>
  reportRow({ transaction_id: id, ...fields });

const tagged = (reference: string) => `api_via_${donationSource(reference)}`;

describe("matching unknown attempts to report rows", () => {
  it("a row tagged with an attempt's reference is that attempt's, even among identical gifts", () => {
    const attempts = [attempt("gk_a"), attempt("gk_b")];
    const rows = [row("t1", { source: tagged("gk_b") }), row("t2", { source: tagged("gk_a") })];
    const result = matchAttempts(attempts, rows, WINDOW);
    expect(result.get("gk_a")).toEqual({ kind: "charged", transactionId: "t2" });
    expect(result.get("gk_b")).toEqual({ kind: "charged", transactionId: "t1" });
  });

  it("a declined row tagged with the reference says nothing was charged", () => {
    const rows = [row("t1", { source: tagged("gk_a"), status: "declined" })];
    expect(matchAttempts([attempt("gk_a")], rows, WINDOW).get("gk_a")).toEqual({
      kind: "refused",
      status: "declined",
    });
  });

  it("no fitting row: absent", () => {
    const rows = [
      row("t1", { amount: "26.00" }),
      row("t2", { keyword: "MEALS" }),
      row("t3", { source: tagged("gk_z") }),
    ];
    expect(matchAttempts([attempt("gk_a")], rows, WINDOW).get("gk_a")).toEqual({ kind: "absent" });
  });

  it("an untagged row that fits one attempt on every field, and no other attempt, is its", () => {
    const attempts = [attempt("gk_a"), attempt("gk_b", { email: "ben@example.org", firstName: "Ben" })];
    const rows = [row("t1"), row("t2", { email: "ben@example.org", first_name: "Ben" })];
    const result = matchAttempts(attempts, rows, WINDOW);
    expect(result.get("gk_a")).toEqual({ kind: "charged", transactionId: "t1" });
    expect(result.get("gk_b")).toEqual({ kind: "charged", transactionId: "t2" });
  });

  it("two attempts the untagged rows cannot tell apart stay unknown, flagged, not guessed", () => {
    const attempts = [attempt("gk_a"), attempt("gk_b")];
    const result = matchAttempts(attempts, [row("t1"), row("t2")], WINDOW);
    expect(result.get("gk_a")).toMatchObject({ kind: "ambiguous" });
    expect(result.get("gk_b")).toMatchObject({ kind: "ambiguous" });
    const one = matchAttempts(attempts, [row("t1")], WINDOW);
    expect(one.get("gk_a")).toEqual({
      kind: "ambiguous",
      why: "its one fitting row fits other attempts too",
    });
  });

  it("a row already given to an attempt is never given to a second", () => {
    const result = matchAttempts([attempt("gk_a")], [row("t1")], { ...WINDOW, claimed: new Set(["t1"]) });
    expect(result.get("gk_a")).toEqual({ kind: "absent" });
  });

  it("an untagged row outside the attempt's window, declined, or of another amount does not fit", () => {
    const rows = [
      row("early", { created_at: "2026-11-23T09:58:00.000Z" }),
      row("late", { created_at: "2026-11-23T10:16:00.000Z" }),
      row("declined", { status: "declined" }),
      row("fee", { amount: "25.75" }),
    ];
    expect(matchAttempts([attempt("gk_a")], rows, WINDOW).get("gk_a")).toEqual({ kind: "absent" });
    expect(matchAttempts([attempt("gk_a", { charged: "25.75" })], rows, WINDOW).get("gk_a")).toEqual({
      kind: "charged",
      transactionId: "fee",
    });
  });

  it("two collected rows carrying one reference are flagged, not picked from", () => {
    const rows = [row("t1", { source: tagged("gk_a") }), row("t2", { source: tagged("gk_a") })];
    expect(matchAttempts([attempt("gk_a")], rows, WINDOW).get("gk_a")).toMatchObject({ kind: "ambiguous" });
  });

  it("the tag fits the upstream's source rule: at most 64 letters, digits, '_', '.' or '-'", () => {
    expect(donationSource("gk_0123456789abcdef0123")).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
  });

  it("a row tagged with a channel and an attempt's reference is that attempt's; other channels' rows are not", () => {
    const attempts = [attempt("gk_a"), attempt("gk_b")];
    const rows = [
      row("t1", { source: `api_via_${donationSource("gk_b", "spring-gala")}` }),
      row("t2", { source: `api_via_${donationSource("gk_a", "newsletter_2026")}` }),
      row("t3", { source: `api_via_${donationSource("gk_z", "spring-gala")}` }),
    ];
    const result = matchAttempts(attempts, rows, WINDOW);
    expect(result.get("gk_a")).toEqual({ kind: "charged", transactionId: "t2" });
    expect(result.get("gk_b")).toEqual({ kind: "charged", transactionId: "t1" });
    const references = new Set(["gk_a"]);
    expect(rows.map((r) => mayConcern(r, references))).toEqual([false, true, false]);
    // A channel-tagged row is never taken for an untagged one: it names its own attempt.
    expect(matchAttempts([attempt("gk_c")], rows, WINDOW).get("gk_c")).toEqual({ kind: "absent" });
  });

  it("the longest channel tag and a reference still fit the upstream's 64 characters", () => {
    const reference = "gk_0123456789abcdef0123";
    expect(reference).toMatch(REFERENCE_PATTERN);
    const longest = "a".repeat(32);
    expect(longest).toMatch(CHANNEL_TAG_PATTERN);
    expect("a".repeat(33)).not.toMatch(CHANNEL_TAG_PATTERN);
    const source = donationSource(reference, longest);
    expect(source).toHaveLength(64);
    expect(source).toMatch(UPSTREAM_ID_PATTERN);
    const result = matchAttempts([attempt(reference)], [row("t1", { source: `api_via_${source}` })], WINDOW);
    expect(result.get(reference)).toEqual({ kind: "charged", transactionId: "t1" });
  });
});
