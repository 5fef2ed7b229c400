/**
 * What the staff dashboard shows, worked out from what the proxy already keeps: the form's
 * funnel from the step counts (POST /v1/form-events), giving per hour from the donation
 * attempts, the defence from its periods, health from the store, the outbox and the unknown
 * attempts. One function per panel, each from plain rows, so each is tested on its own.
 */
import { FORM_REASONS, FORM_STEPS } from "../../contract/form-steps";
import { toCents } from "../../contract/money";
import type { FunnelStep, Giving, GivingHour, Health, Segment } from "../../contract/dashboard";
import type { AttemptRecord, DefenceState, FormStepCount, OutboxStats } from "../store";

export const HOUR_MS = 3_600_000;
/** The periods the page offers: today (UTC, from midnight), the last 7 and the last 30 days. */
export const PERIODS = ["today", "7d", "30d"] as const;
export type Period = (typeof PERIODS)[number];

/** The first and last hour (whole hours since the epoch) of `period` as of `now`. */
export function hoursOf(period: Period, now: number): { fromHour: number; toHour: number } {
  const toHour = Math.floor(now / HOUR_MS);
  if (period === "today") return { fromHour: Math.floor(now / (24 * HOUR_MS)) * 24, toHour };
  return { fromHour: toHour - (period === "7d" ? 7 : 30) * 24 + 1, toHour };
}

/** The funnel of these counts: each step's reached, the share that left before the next, and why. */
export function funnel(counts: readonly FormStepCount[]): FunnelStep[] {
  const reached = new Map<string, number>();
  const reasons = new Map<string, Map<string, number>>();
  for (const row of counts) {
    if (row.reason === "reached") reached.set(row.step, (reached.get(row.step) ?? 0) + row.count);
    else {
      const of = reasons.get(row.step) ?? new Map<string, number>();
      of.set(row.reason, (of.get(row.reason) ?? 0) + row.count);
      reasons.set(row.step, of);
    }
  }
  return FORM_STEPS.map((step, index) => {
    const here = reached.get(step) ?? 0;
    const next = index + 1 < FORM_STEPS.length ? (reached.get(FORM_STEPS[index + 1]!) ?? 0) : here;
    const left = Math.max(0, here - next);
    return {
      step,
      reached: here,
      left,
      shareLeft: here === 0 ? 0 : left / here,
      reasons: [...(reasons.get(step) ?? new Map<string, number>())]
        .map(([reason, count]) => ({ reason, count }))
        .toSorted(
          (a, b) =>
            b.count - a.count ||
            FORM_REASONS.indexOf(a.reason as never) - FORM_REASONS.indexOf(b.reason as never),
        ),
    };
  });
}

/** Forms shown and thank-yous reached per channel or per device class, most shown first. */
export function segments(counts: readonly FormStepCount[], by: "channel" | "device"): Segment[] {
  const of = new Map<string, Segment>();
  for (const row of counts) {
    if (row.reason !== "reached" || (row.step !== "shown" && row.step !== "thanks")) continue;
    const segment = of.get(row[by]) ?? { name: row[by], shown: 0, thanked: 0, shareFinished: 0 };
    if (row.step === "shown") segment.shown += row.count;
    else segment.thanked += row.count;
    of.set(row[by], segment);
  }
  return [...of.values()]
    .map((segment) => ({
      ...segment,
      shareFinished: segment.shown === 0 ? 0 : segment.thanked / segment.shown,
    }))
    .toSorted((a, b) => b.shown - a.shown || (a.name < b.name ? -1 : 1));
}

/** Giving in these hours from the proxy's own attempts: gifts that went through (or were reconciled as charged). */
export function giving(
  attempts: readonly AttemptRecord[],
  hours: { fromHour: number; toHour: number },
  campaign?: string,
): Giving {
  const inPeriod = attempts.filter((a) => {
    const hour = Math.floor(Date.parse(a.created_at) / HOUR_MS);
    return (
      hour >= hours.fromHour &&
      hour <= hours.toHour &&
      (campaign === undefined || `${a.shortcode}/${a.keyword.toUpperCase()}` === campaign)
    );
  });
  const gifts = inPeriod.filter((a) => a.state === "succeeded");
  const perHour = new Map<number, GivingHour>();
  for (let hour = hours.fromHour; hour <= hours.toHour; hour++)
    perHour.set(hour, { hour: new Date(hour * HOUR_MS).toISOString(), gifts: 0, cents: 0 });
  let cents = 0;
  for (const gift of gifts) {
    const amount = toCents(gift.amount);
    cents += amount;
    const slot = perHour.get(Math.floor(Date.parse(gift.created_at) / HOUR_MS))!;
    slot.gifts += 1;
    slot.cents += amount;
  }
  const share = (n: number) => (gifts.length === 0 ? 0 : n / gifts.length);
  return {
    gifts: gifts.length,
    cents,
    averageCents: gifts.length === 0 ? 0 : Math.round(cents / gifts.length),
    recurringShare: share(gifts.filter((g) => g.recurring_frequency !== null).length),
    feeCoveredShare: share(gifts.filter((g) => toCents(g.fee_amount) > 0).length),
    declined: inPeriod.filter((a) => a.state === "declined").length,
    perHour: [...perHour.values()],
  };
}

export function health(facts: {
  store: boolean;
  unknown: number;
  outbox: OutboxStats;
  defence: readonly DefenceState[];
  now: number;
}): Health {
  return {
    store: facts.store,
    unknownOutcomes: facts.unknown,
    webhooksWaiting: facts.outbox.pending,
    webhooksDead: facts.outbox.dead,
    webhooksFailing: facts.outbox.failing.map((f) => ({
      endpoint: new URL(f.endpoint).origin,
      since: new Date(f.since).toISOString(),
    })),
    defenceOpen: facts.defence
      .filter((d) => !d.ended && d.until > facts.now)
      .map((d) => ({ scope: d.scope, signal: d.signal, until: new Date(d.until).toISOString() })),
  };
}
