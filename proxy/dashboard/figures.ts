/**
 * What the staff dashboard shows, worked out from what the proxy already keeps: the form's
 * funnel from the step counts (POST /v1/form-events), giving from the room display's feed and
 * the store's counts of the donation attempts, the defence from its periods, health from the store, the outbox and the unknown
 * attempts. One function per panel, each from plain rows, so each is tested on its own.
 */
import { FORM_REASONS, FORM_STEPS } from "../../contract/form-steps";
import type {
  DefencePanel,
  FunnelStep,
  Giving,
  GivingHour,
  Health,
  RoomFigures,
  Segment,
  UpstreamHealth,
} from "../../contract/dashboard";
import type { DefenceState, FormStepCount, GivingCount, OpsCount, OutboxStats } from "../store";
import { heldNow } from "../defence/breaker";
import { bucketQuantile, OPS_KINDS } from "./ops-counts";

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

/**
 * Forms shown, gifts sent, thank-yous and declines per channel or per device class, most shown
 * first: a channel's funnel where the money is (the last three the proxy's own outcomes).
 */
export function segments(counts: readonly FormStepCount[], by: "channel" | "device"): Segment[] {
  const of = new Map<string, Segment>();
  for (const row of counts) {
    const field =
      row.reason === "reached"
        ? ({ shown: "shown", sent: "sent", thanks: "thanked" } as const)[row.step as "shown"]
        : row.step === "sent" && row.reason === "declined"
          ? "declined"
          : undefined;
    if (!field) continue;
    const segment = of.get(row[by]) ?? {
      name: row[by],
      shown: 0,
      thanked: 0,
      shareFinished: 0,
      sent: 0,
      declined: 0,
    };
    segment[field] += row.count;
    of.set(row[by], segment);
  }
  return [...of.values()]
    .map((segment) => ({
      ...segment,
      shareFinished: segment.shown === 0 ? 0 : segment.thanked / segment.shown,
    }))
    .toSorted((a, b) => b.shown - a.shown || (a.name < b.name ? -1 : 1));
}

/**
 * Giving: each campaign's figures as its room display shows them (`room`, from the display's
 * feed), and the gifts that went through givekit in these hours, from the store's counts of its
 * attempts (GivingCountStore: summed in the store, never a row per attempt).
 */
export function giving(
  counts: readonly GivingCount[],
  hours: { fromHour: number; toHour: number },
  campaign: string | undefined,
  room: RoomFigures[],
): Giving {
  const inView = counts.filter(
    (c) =>
      c.hour >= hours.fromHour &&
      c.hour <= hours.toHour &&
      (campaign === undefined || c.campaign === campaign),
  );
  const perHour = new Map<number, GivingHour>();
  for (let hour = hours.fromHour; hour <= hours.toHour; hour++)
    perHour.set(hour, { hour: new Date(hour * HOUR_MS).toISOString(), gifts: 0, cents: 0 });
  let gifts = 0;
  let cents = 0;
  let recurring = 0;
  let feeCovered = 0;
  let declined = 0;
  for (const count of inView) {
    if (count.state === "declined") declined += count.attempts;
    if (count.state !== "succeeded") continue;
    gifts += count.attempts;
    cents += count.cents;
    if (count.recurring) recurring += count.attempts;
    if (count.feeCovered) feeCovered += count.attempts;
    const slot = perHour.get(count.hour)!;
    slot.gifts += count.attempts;
    slot.cents += count.cents;
  }
  const share = (n: number) => (gifts === 0 ? 0 : n / gifts);
  return {
    room,
    gifts,
    cents,
    averageCents: gifts === 0 ? 0 : Math.round(cents / gifts),
    recurringShare: share(recurring),
    feeCoveredShare: share(feeCovered),
    declined,
    perHour: [...perHour.values()],
  };
}

/** The hours of a period, each as its ISO start, in order. */
function hourStarts(hours: { fromHour: number; toHour: number }): number[] {
  return Array.from({ length: Math.max(0, hours.toHour - hours.fromHour + 1) }, (_, i) => hours.fromHour + i);
}

/** Bucketed times of one kind, by bucket, from these counts. */
function bucketsOf(counts: readonly OpsCount[], kind: string): Map<string, number> {
  const buckets = new Map<string, number>();
  for (const row of counts)
    if (row.kind === kind) buckets.set(row.label, (buckets.get(row.label) ?? 0) + row.count);
  return buckets;
}

const quantiles = (buckets: ReadonlyMap<string, number>) => ({
  p50: bucketQuantile(buckets, 0.5),
  p95: bucketQuantile(buckets, 0.95),
});

/** Open defence periods now, as both panels show them. */
function openPeriods(defence: readonly DefenceState[], now: number) {
  return defence
    .filter((d) => !d.ended && d.until > now)
    .map((d) => ({ scope: d.scope, signal: d.signal, until: new Date(d.until).toISOString() }));
}

/**
 * The circuit breakers open now (defence/breaker.ts keeps each as a note "breaker:<scope>"): a
 * campaign's by its name, the clients' as one count, never their addresses.
 */
function openBreakers(notes: readonly { key: string; value: string }[], campaign: string | undefined) {
  const open = notes.flatMap((note) => {
    try {
      const { until } = JSON.parse(note.value) as { until: number };
      return [{ scope: note.key.slice("breaker:".length), until }];
    } catch {
      return [];
    }
  });
  const campaigns = open
    .filter((each) => each.scope.startsWith("campaign:"))
    .map((each) => ({ name: each.scope.slice("campaign:".length), until: each.until }))
    .filter((each) => campaign === undefined || each.name === campaign);
  const clients = open.filter((each) => each.scope.startsWith("client:"));
  const latest = Math.max(0, ...clients.map((each) => each.until));
  return [
    ...campaigns,
    ...(clients.length > 0 ? [{ name: `clients × ${clients.length}`, until: latest }] : []),
  ].map((each) => ({ name: each.name, until: new Date(each.until).toISOString() }));
}

/** The defence panel of these counts (ops-counts.ts), the periods and the breakers open now. */
export function defencePanel(facts: {
  counts: readonly OpsCount[];
  hours: { fromHour: number; toHour: number };
  defence: readonly DefenceState[];
  /** The breakers' notes (Counters.notesUnder("breaker:")), and the campaign the view is of. */
  breakers?: { notes: readonly { key: string; value: string }[]; campaign?: string };
  now: number;
}): DefencePanel {
  const total = (kind: string) =>
    facts.counts.filter((row) => row.kind === kind).reduce((sum, row) => sum + row.count, 0);
  const refusals = new Map<string, number>();
  const perHour = new Map(
    hourStarts(facts.hours).map((hour) => [
      hour,
      { hour: new Date(hour * HOUR_MS).toISOString(), asked: 0, solved: 0, refused: 0, declined: 0 },
    ]),
  );
  for (const row of facts.counts) {
    if (row.kind === OPS_KINDS.refused) refusals.set(row.label, (refusals.get(row.label) ?? 0) + row.count);
    const slot = perHour.get(row.hour);
    if (!slot) continue;
    if (row.kind === OPS_KINDS.challengeAsked) slot.asked += row.count;
    else if (row.kind === OPS_KINDS.challengeSolved) slot.solved += row.count;
    else if (row.kind === OPS_KINDS.refused) slot.refused += row.count;
    else if (row.kind === OPS_KINDS.declined) slot.declined += row.count;
  }
  return {
    challengesAsked: total(OPS_KINDS.challengeAsked),
    challengesSolved: total(OPS_KINDS.challengeSolved),
    solveMs: quantiles(bucketsOf(facts.counts, OPS_KINDS.solveMs)),
    refusals: [...refusals]
      .map(([reason, count]) => ({ reason, count }))
      .toSorted((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1)),
    declined: total(OPS_KINDS.declined),
    perHour: [...perHour.values()],
    scrutinyOpen: openPeriods(facts.defence, facts.now),
    breakersOpen: facts.breakers ? openBreakers(facts.breakers.notes, facts.breakers.campaign) : [],
    heldNow: heldNow(facts.breakers?.notes ?? [], facts.now),
  };
}

/** The upstream's answers by class and its latency, overall and per hour, from these counts. */
export function upstreamHealth(
  counts: readonly OpsCount[],
  hours: { fromHour: number; toHour: number },
): UpstreamHealth {
  const answers = new Map<string, number>();
  const hourly = new Map(
    hourStarts(hours).map((hour) => [
      hour,
      { answers: {} as Record<string, number>, buckets: new Map<string, number>() },
    ]),
  );
  for (const row of counts) {
    const slot = hourly.get(row.hour);
    if (row.kind === OPS_KINDS.upstream) {
      answers.set(row.label, (answers.get(row.label) ?? 0) + row.count);
      if (slot) {
        const answer = row.label.split(":")[1] ?? row.label;
        slot.answers[answer] = (slot.answers[answer] ?? 0) + row.count;
      }
    } else if (row.kind === OPS_KINDS.upstreamMs && slot)
      slot.buckets.set(row.label, (slot.buckets.get(row.label) ?? 0) + row.count);
  }
  return {
    answers: [...answers]
      .map(([label, count]) => ({ label, count }))
      .toSorted((a, b) => b.count - a.count || (a.label < b.label ? -1 : 1)),
    latencyMs: quantiles(bucketsOf(counts, OPS_KINDS.upstreamMs)),
    perHour: [...hourly].map(([hour, slot]) => ({
      hour: new Date(hour * HOUR_MS).toISOString(),
      answers: slot.answers,
      latencyMs: quantiles(slot.buckets),
    })),
  };
}

export function health(facts: {
  store: boolean;
  unknown: number;
  outbox: OutboxStats;
  defence: readonly DefenceState[];
  ops: readonly OpsCount[];
  hours: { fromHour: number; toHour: number };
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
    defenceOpen: openPeriods(facts.defence, facts.now),
    upstream: upstreamHealth(facts.ops, facts.hours),
  };
}
