/**
 * Defence mode's rows, shared by both adapters: one row per scope; a crossing starts a period or
 * prolongs it; an end is marked once, so exactly one proxy logs it.
 */
import type { DefenceState } from "./types";

export function toDefenceState(row: {
  scope: string;
  signal: string;
  value: number | string;
  since_ms: number | string;
  until_ms: number | string;
  ended: number;
}): DefenceState {
  return {
    scope: row.scope,
    signal: row.signal,
    value: Number(row.value),
    since: Number(row.since_ms),
    until: Number(row.until_ms),
    ended: row.ended === 1,
  };
}

/**
 * The signals that are volume, which a crowd makes too; every other signal is evidence of card
 * testing. A period started by volume takes on the first evidence that crosses while it is on.
 */
export const VOLUME_SIGNALS = ["tokens_per_min", "cards_per_min"] as const;
const VOLUME_LIST = VOLUME_SIGNALS.map((signal) => `'${signal}'`).join(", ");
const TAKES_NEW = `defence_modes.until_ms <= excluded.since_ms
      OR (defence_modes.signal IN (${VOLUME_LIST}) AND excluded.signal NOT IN (${VOLUME_LIST}))`;

/** A period over (or ended) starts again; one still on only runs longer (and takes on evidence over volume). */
export const CROSS_DEFENCE_SQL = (max: "MAX" | "GREATEST", p: (n: number) => string) => `
  INSERT INTO defence_modes (scope, signal, value, since_ms, until_ms, ended, started_by)
  VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, 0, ${p(6)})
  ON CONFLICT (scope) DO UPDATE SET
    signal = CASE WHEN ${TAKES_NEW} THEN excluded.signal ELSE defence_modes.signal END,
    value = CASE WHEN ${TAKES_NEW} THEN excluded.value ELSE defence_modes.value END,
    since_ms = CASE WHEN defence_modes.until_ms <= excluded.since_ms THEN excluded.since_ms ELSE defence_modes.since_ms END,
    started_by = CASE WHEN defence_modes.until_ms <= excluded.since_ms THEN excluded.started_by ELSE defence_modes.started_by END,
    ended = 0,
    until_ms = ${max}(defence_modes.until_ms, excluded.until_ms)
  RETURNING scope, signal, value, since_ms, until_ms, ended, started_by`;

/** Periods past their end, not yet told: marked, and returned to this one caller. */
export const END_DEFENCES_SQL = (p: (n: number) => string) => `
  UPDATE defence_modes SET ended = 1 WHERE ended = 0 AND until_ms <= ${p(1)}
  RETURNING scope, signal, value, since_ms, until_ms, ended`;
