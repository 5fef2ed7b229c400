import { describe, expect, it } from "vitest";
import type { AttemptRecord, FormStepCount } from "../store";
import { funnel, giving, hoursOf, HOUR_MS, segments } from "./figures";

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

const gift = (at: number, amount: string, more: Partial<AttemptRecord> = {}) =>
  ({
    shortcode: "71777",
    keyword: "HOPE",
    amount,
    fee_amount: "0.00",
    recurring_frequency: null,
    state: "succeeded",
    created_at: new Date(at).toISOString(),
    ...more,
  }) as AttemptRecord;

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

  it("by channel and by device: shown, thanked and the share that finished", () => {
    const counts = [
      row("shown", "reached", 10),
      row("thanks", "reached", 4),
      row("shown", "reached", 5, { channel: "sms", device: "larger" }),
      row("thanks", "reached", 5, { channel: "sms", device: "larger" }),
      row("card", "reached", 9),
    ];
    expect(segments(counts, "channel")).toEqual([
      { name: "email", shown: 10, thanked: 4, shareFinished: 0.4 },
      { name: "sms", shown: 5, thanked: 5, shareFinished: 1 },
    ]);
    expect(segments(counts, "device").map((s) => s.name)).toEqual(["phone", "larger"]);
  });
});

describe("giving", () => {
  it("gifts and amount per hour of the period, the average, the monthly and fee-covering shares; declines apart", () => {
    const hours = { fromHour: 100, toHour: 102 };
    const g = giving(
      [
        gift(100 * HOUR_MS + 5, "25.75", { fee_amount: "0.75" }),
        gift(100 * HOUR_MS + 9, "10.00", { recurring_frequency: "monthly" }),
        gift(102 * HOUR_MS, "40.00", { keyword: "hope" }),
        gift(102 * HOUR_MS, "99.00", { state: "declined" }),
        gift(103 * HOUR_MS, "50.00"),
        gift(101 * HOUR_MS, "50.00", { keyword: "GALA" }),
      ],
      hours,
      "71777/HOPE",
    );
    expect(g).toMatchObject({ gifts: 3, cents: 7575, averageCents: 2525, declined: 1 });
    expect(g.recurringShare).toBeCloseTo(1 / 3);
    expect(g.feeCoveredShare).toBeCloseTo(1 / 3);
    expect(g.perHour.map((h) => [h.hour, h.gifts, h.cents])).toEqual([
      [new Date(100 * HOUR_MS).toISOString(), 2, 3575],
      [new Date(101 * HOUR_MS).toISOString(), 0, 0],
      [new Date(102 * HOUR_MS).toISOString(), 1, 4000],
    ]);
  });

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
