/**
 * The form's steps the proxy itself saw happen (contract/form-steps.ts PROXY_STEPS and
 * PROXY_REASONS): a gift sent when the session's card reaches the proxy, a thank-you when its gift
 * is charged, a stop when its card is declined, its challenge goes unsolved or the upstream
 * fails. Each once per form session, under the channel and device class its beacons told (noted
 * for the session's life, nothing else of it), else `direct` and `larger`. A beacon claiming any
 * of these counts nothing (form-events.ts), so no script can raise a nonprofit's conversion, and
 * the thank-yous never outnumber the gifts charged.
 */
import {
  CHANNEL_DIRECT,
  isDeviceClass,
  type DeviceClass,
  type FormReason,
  type FormStep,
} from "../../contract/form-steps";
import type { ErrorCode } from "../../contract/errors";
import type { AttemptState, Counters, FormCountStore, FormStepCount, Reconciliation } from "../store";
import { PENDING_FORM_NOTE_PREFIX } from "../store/counters";

const HOUR_MS = 3_600_000;
/** How long an outcome waits for its session's first beacons: the card frame sends them every 2 s. */
const SEGMENT_WAIT_MS = 5000;
// A second apart: a botnet's beacon-less sessions cost six reads each at most, not twenty.
const SEGMENT_POLL_MS = 1000;

/** How long a session's marks and its channel are kept: longer than any form session lives. */
export const FORM_MARK_MS = 24 * HOUR_MS;

/** Where a session's step (and reason) is marked counted: beacons and outcomes share the marks. */
export const formMarkKey = (session: string, step: FormStep, reason: FormReason) =>
  `form-event:${session}:${step}:${reason}`;
const segmentKey = (session: string) => `form-segment:${session}`;
/**
 * Where a session with a gift answered Pending keeps its channel and device until the gift settles:
 * a shared note, so `givekit reconcile` reads it beside a proxy on SQLite, whose other marks and
 * notes live in its memory.
 */
const pendingKey = (session: string) => `${PENDING_FORM_NOTE_PREFIX}${session}`;

type Segment = { channel: string; device: DeviceClass };

/** A noted segment ("channel\ndevice"), else `direct` and `larger`. */
function segmentOfNote(noted: string | null): Segment {
  const [channel, device] = (noted ?? "").split("\n");
  return { channel: channel || CHANNEL_DIRECT, device: isDeviceClass(device) ? device : "larger" };
}

/** The outcomes a Pending gift's settling can count: a thank-you, a decline, the upstream's failure. */
const SETTLING_EVENTS = [
  ["thanks", "reached"],
  ["sent", "declined"],
  ["sent", "upstream_error"],
] as const satisfies readonly (readonly [FormStep, FormReason])[];
const eventName = ([step, reason]: readonly [FormStep, FormReason]) => `${step}:${reason}`;
const isSettlingEvent = (event: readonly [FormStep, FormReason]) =>
  SETTLING_EVENTS.some((settling) => eventName(settling) === eventName(event));

/**
 * A Pending note: the session's segment, and which of its settling outcomes were counted already
 * (the marks of a proxy on SQLite are in its memory, where `givekit reconcile` cannot see them).
 */
const pendingNote = (segment: Segment, counted: Iterable<string>) =>
  `${segment.channel}\n${segment.device}\n${[...counted].join(" ")}`;
const countedOfNote = (noted: string) => new Set((noted.split("\n")[2] ?? "").split(" ").filter(Boolean));

/** The reason a refusal of the session's card or gift stands for, or null (it counts nothing). */
export function outcomeReason(code: ErrorCode): FormReason | null {
  if (code === "card_declined" || code === "payment_failed" || code === "too_many_declines")
    return "declined";
  if (code === "challenge_failed") return "challenge_unsolved";
  if (code === "upstream_error" || code === "upstream_unavailable" || code === "upstream_auth_failed")
    return "upstream_error";
  return null;
}

/**
 * @example
 * const outcomes = createFormOutcomes({ store, counters, channelsCap: 20 });
 * await outcomes.count({ id: session.id, campaign: "71777/HOPE" }, [["sent", "reached"]]);
 */
export function createFormOutcomes(deps: {
  store: Pick<FormCountStore, "addFormCounts">;
  counters: Pick<Counters, "add" | "remember" | "recall">;
  channelsCap: number;
  /** How long an outcome waits for its session's first beacons; 0 where none will come (a command). */
  segmentWaitMs?: number;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const segmentWaitMs = deps.segmentWaitMs ?? SEGMENT_WAIT_MS;

  /**
   * The channel and device its beacons told. A fast donor's card or gift can reach the proxy before
   * the frame's first beacons (sent every 2 s), so an outcome waits for them a little before it
   * falls back to `direct`; the donor never waits on it (outcomes are counted beside the answer).
   */
  async function segmentOf(session: string): Promise<Segment> {
    let noted: string | null = null;
    for (let waited = 0; ; waited += SEGMENT_POLL_MS) {
      noted = await deps.counters.recall(segmentKey(session)).catch(() => null);
      if (noted || waited >= segmentWaitMs) break;
      await new Promise((resolve) => setTimeout(resolve, SEGMENT_POLL_MS).unref());
    }
    return segmentOfNote(noted);
  }

  /**
   * Names `counted` in the session's Pending note beside those it names already, under `segment`
   * (a note made now) or the note's own; the names it held before, or null where there is no note
   * and none is made.
   */
  async function noteCounted(
    session: string,
    counted: string[],
    segment?: Segment,
  ): Promise<Set<string> | null> {
    const noted = await deps.counters.recall(pendingKey(session)).catch(() => null);
    if (noted === null && !segment) return null;
    const before = noted === null ? new Set<string>() : countedOfNote(noted);
    await deps.counters.remember(
      pendingKey(session),
      pendingNote(segment ?? segmentOfNote(noted), new Set([...before, ...counted])),
      FORM_MARK_MS,
    );
    return before;
  }

  /**
   * Of a session with a gift Pending, the settling outcomes its note does not name as counted (by
   * a proxy or by the command, whose marks the other cannot see on SQLite), named there now.
   */
  async function notCountedElsewhere(
    session: string,
    fresh: (readonly [FormStep, FormReason])[],
  ): Promise<(readonly [FormStep, FormReason])[]> {
    const before = await noteCounted(session, fresh.filter(isSettlingEvent).map(eventName));
    return before ? fresh.filter((event) => !before.has(eventName(event))) : fresh;
  }

  /** Counts these events of a session, each once whoever saw it first; under `known`, when given. */
  async function count(
    session: { id: string; campaign: string },
    events: readonly (readonly [FormStep, FormReason])[],
    known?: Segment,
  ): Promise<void> {
    if (!session.campaign || events.length === 0) return;
    const marks = await deps.counters.add(
      events.map(([step, reason]) => ({
        key: formMarkKey(session.id, step, reason),
        points: 1,
        ttlMs: FORM_MARK_MS,
      })),
    );
    let fresh = events.filter((_, index) => marks[index]!.points === 1);
    if (fresh.some(isSettlingEvent)) fresh = await notCountedElsewhere(session.id, fresh);
    if (fresh.length === 0) return;
    const { channel, device } = known ?? (await segmentOf(session.id));
    const hour = Math.floor(now() / HOUR_MS);
    const counts: FormStepCount[] = fresh.map(([step, reason]) => ({
      campaign: session.campaign,
      hour,
      step,
      reason,
      channel,
      device,
      count: 1,
    }));
    await deps.store.addFormCounts(counts, deps.channelsCap);
  }

  return {
    count,
    /** A beacon's channel (as counted) and device class, for the session's outcomes to come. */
    noteSegment: (session: string, channel: string, device: DeviceClass) =>
      deps.counters.remember(segmentKey(session), `${channel}\n${device}`, FORM_MARK_MS),
    /** A card of the session reached the proxy (a gift sent), or was refused for `code`. */
    tokenization: (session: { id: string; campaign: string }, code?: ErrorCode) => {
      const reason = code ? outcomeReason(code) : null;
      return count(session, [["sent", "reached"], ...(reason ? [["sent", reason] as const] : [])]);
    },
    /**
     * A gift of the session, as recorded: charged, a thank-you; declined or failed, its reason; a
     * Pending gift is a gift sent until it settles, its channel and device noted where whoever
     * settles it reads them (a proxy, or `givekit reconcile` beside one).
     */
    donation: async (
      session: { id: string; campaign: string },
      state: AttemptState | "not_sent",
      code?: string | null,
    ) => {
      const reason = state === "declined" ? "declined" : code ? outcomeReason(code as ErrorCode) : null;
      await count(session, [
        ["sent", "reached"],
        ...(state === "succeeded" ? [["thanks", "reached"] as const] : []),
        ...(reason && state !== "succeeded" ? [["sent", reason] as const] : []),
      ]);
      if ((state === "unknown" || state === "sending") && session.campaign) {
        // What this proxy counted of the session already (a gift charged before), for the command.
        const marks = await deps.counters.add(
          SETTLING_EVENTS.map(([step, settledAs]) => ({
            key: formMarkKey(session.id, step, settledAs),
            points: 0,
            ttlMs: FORM_MARK_MS,
          })),
        );
        await noteCounted(
          session.id,
          SETTLING_EVENTS.filter((_, index) => marks[index]!.points > 0).map(eventName),
          await segmentOf(session.id),
        );
      }
    },
    /**
     * A Pending gift of the session settled (the reconciler found what became of it): charged, a
     * thank-you; declined or failed, a decline; not charged at all, the upstream's failure; under
     * the channel and device its Pending note keeps. Its gift sent was counted when its card
     * reached the proxy. Each once: a proxy's marks keep it so; between a proxy and the command,
     * the settling itself (one run settles an attempt) and the note, which names the outcomes
     * either counted for the session (its other gifts').
     */
    settled: async (session: { id: string; campaign: string }, state: Reconciliation["state"]) => {
      const pending = await deps.counters.recall(pendingKey(session.id)).catch(() => null);
      await count(
        session,
        [
          state === "succeeded"
            ? ["thanks", "reached"]
            : ["sent", state === "not_charged" ? "upstream_error" : "declined"],
        ],
        pending === null ? undefined : segmentOfNote(pending),
      );
    },
  };
}

export type FormOutcomes = ReturnType<typeof createFormOutcomes>;
