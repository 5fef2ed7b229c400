import { describe, expect, it } from "vitest";
import type { FormStepCount } from "../store";
import { defencePanel, funnel, hoursOf, HOUR_MS, segments } from "./figures";
import { bucketQuantile, MS_BUCKETS, MS_MORE, msBucket } from "./ops-counts";

const row = (
  step: string,
  reason: string,
  count: number,
  more: Partial<FormStepCount> = {},
): FormStepCount => ({
  campaign: "71777/HOPE",
  hour: 10,
  step,
  reason,
  channel: "email",
  device: "phone",
  count,
  ...more,
});

/** One ops count (OpsCountStore). */
const op = (hour: number, kind: string, label: string, count: number) => ({
  campaign: "71777/HOPE",
  hour,
  kind,
  label,
  count,
});

/** A breaker's note in the shared store, open until `until`. */
/** A card held at a breaker, as breaker.ts notes it. */
const heldNote = (card: string, first: number, last: number) => ({
  key: `breaker:held:${card}`,
  value: JSON.stringify({ first, last }),
});
const breakerNote = (scope: string, until: number) => ({
  key: `breaker:${scope}`,
  value: JSON.stringify({ until, openS: 30, openedAt: 0 }),
});

describe("the funnel", () => {
  it("each step's reached, the share that left before the next, and why, largest first", () => {
    const steps = funnel([
      row("shown", "reached", 10),
      row("shown", "reached", 2, { channel: "sms" }),
      row("shown", "closed", 3),
      row("amount", "reached", 8),
      row("amount", "invalid_amount", 1),
      row("details", "reached", 8),
      row("card", "reached", 6),
      row("card", "declined", 2),
      row("card", "challenge_unsolved", 1),
      row("sent", "reached", 4),
      row("thanks", "reached", 4),
    ]);
    expect(steps.map((s) => [s.step, s.reached, s.left, s.shareLeft])).toEqual([
      ["shown", 12, 4, 4 / 12],
      ["amount", 8, 0, 0],
      ["details", 8, 2, 0.25],
      ["card", 6, 2, 2 / 6],
      ["sent", 4, 0, 0],
      ["thanks", 4, 0, 0],
    ]);
    expect(steps[3]!.reasons).toEqual([
      { reason: "declined", count: 2 },
      { reason: "challenge_unsolved", count: 1 },
    ]);
  });

  it("a period with no counts: every step at 0, no share, no reason (an empty chart, not an error)", () => {
    expect(
      funnel([]).every((s) => s.reached === 0 && s.left === 0 && s.shareLeft === 0 && s.reasons.length === 0),
    ).toBe(true);
    expect(segments([], "channel")).toEqual([]);
  });

  it("by channel and by device: shown, thanked, the share that finished, gifts sent and declined", () => {
    const counts = [
      row("shown", "reached", 10),
      row("thanks", "reached", 4),
      row("sent", "reached", 6),
      row("sent", "declined", 2),
      row("shown", "reached", 5, { channel: "sms", device: "larger" }),
      row("thanks", "reached", 5, { channel: "sms", device: "larger" }),
      row("sent", "reached", 5, { channel: "sms", device: "larger" }),
      row("card", "reached", 9),
      row("amount", "invalid_amount", 1),
    ];
    expect(segments(counts, "channel")).toEqual([
      { name: "email", shown: 10, thanked: 4, shareFinished: 0.4, sent: 6, declined: 2 },
      { name: "sms", shown: 5, thanked: 5, shareFinished: 1, sent: 5, declined: 0 },
    ]);
    expect(segments(counts, "device").map((s) => s.name)).toEqual(["phone", "larger"]);
  });
});

describe("the periods", () => {
  it("the periods: today from midnight UTC, 7 and 30 days back to this hour", () => {
    const now = Date.parse("2026-11-28T19:30:00Z");
    const thisHour = Math.floor(now / HOUR_MS);
    expect(hoursOf("today", now)).toEqual({
      fromHour: Date.parse("2026-11-28T00:00:00Z") / HOUR_MS,
      toHour: thisHour,
    });
    expect(hoursOf("7d", now)).toEqual({ fromHour: thisHour - 167, toHour: thisHour });
    expect(hoursOf("30d", now).toHour - hoursOf("30d", now).fromHour + 1).toBe(720);
  });
});

describe("times from bucketed counts", () => {
  it("each quantile is its bucket's upper bound; none counted is null; past the last bound is the last", () => {
    const buckets = new Map([
      ["250", 10],
      ["1000", 8],
      ["8000", 2],
    ]);
    expect(bucketQuantile(buckets, 0.5)).toBe(250);
    expect(bucketQuantile(buckets, 0.51)).toBe(1000);
    expect(bucketQuantile(buckets, 0.95)).toBe(8000);
    expect(bucketQuantile(new Map(), 0.5)).toBeNull();
    expect(bucketQuantile(new Map([[MS_MORE, 1]]), 0.5)).toBe(MS_BUCKETS[MS_BUCKETS.length - 1]);
    expect([msBucket(0), msBucket(50), msBucket(51), msBucket(999_999)]).toEqual([
      "50",
      "50",
      "100",
      MS_MORE,
    ]);
  });

  it("the defence panel: totals, refusals largest first, per hour with empty hours, periods open now, no breakers told", () => {
    const panel = defencePanel({
      counts: [
        op(10, "challenge_asked", "", 4),
        op(10, "challenge_solved", "", 3),
        op(10, "solve_ms", "500", 2),
        op(12, "solve_ms", "4000", 1),
        op(10, "refused", "challenge_failed", 1),
        op(12, "refused", "too_many_declines", 2),
        op(12, "declined", "", 5),
      ],
      hours: { fromHour: 10, toHour: 12 },
      defence: [
        { scope: "71777/HOPE", signal: "declines", until: 2_000, ended: false } as never,
        { scope: "*", signal: "bins", until: 500, ended: false } as never,
      ],
      now: 1_000,
    });
    expect(panel).toMatchObject({
      challengesAsked: 4,
      challengesSolved: 3,
      solveMs: { p50: 500, p95: 4000 },
      refusals: [
        { reason: "too_many_declines", count: 2 },
        { reason: "challenge_failed", count: 1 },
      ],
      declined: 5,
      breakersOpen: [],
    });
    expect(panel.perHour.map((h) => [h.asked, h.solved, h.refused, h.declined])).toEqual([
      [4, 3, 1, 0],
      [0, 0, 0, 0],
      [0, 0, 2, 5],
    ]);
    expect(panel.scrutinyOpen.map((p) => p.signal)).toEqual(["declines"]);
  });
  it("the defence panel's breakers: a campaign's by name, the clients' as one count, never an address", () => {
    const notes = [
      breakerNote("campaign:71777/HOPE", 5_000),
      breakerNote("campaign:71777/GALA", 6_000),
      breakerNote("client:203.0.113.7", 7_000),
      breakerNote("client:198.51.100.9", 9_000),
      { key: "breaker:campaign:71777/BROKEN", value: "{" },
    ];
    const of = (campaign?: string) =>
      defencePanel({
        counts: [],
        hours: { fromHour: 0, toHour: 0 },
        defence: [],
        now: 0,
        breakers: { notes, campaign },
      }).breakersOpen;
    expect(of()).toEqual([
      { name: "71777/HOPE", until: new Date(5_000).toISOString() },
      { name: "71777/GALA", until: new Date(6_000).toISOString() },
      { name: "clients × 2", until: new Date(9_000).toISOString() },
    ]);
    expect(of("71777/GALA").map((b) => b.name)).toEqual(["71777/GALA", "clients × 2"]);
    expect(JSON.stringify(of())).not.toMatch(/203\.0\.113|198\.51\.100/);
  });
  it("the defence panel says how many people the breakers hold now and for how long", () => {
    const notes = [
      breakerNote("client:203.0.113.7", 70_000),
      heldNote("a", 10_000, 55_000),
      heldNote("b", 50_000, 58_000),
      // Not held again for over 20 s: its widget gave up or got through.
      heldNote("c", 0, 30_000),
    ];
    const panel = defencePanel({
      counts: [],
      hours: { fromHour: 0, toHour: 0 },
      defence: [],
      now: 60_000,
      breakers: { notes },
    });
    expect(panel.heldNow).toEqual({ people: 2, longestS: 50 });
    expect(panel.breakersOpen.map((b) => b.name)).toEqual(["clients × 1"]);
  });
});
