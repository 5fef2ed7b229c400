/** The reconciler: how often unknown attempts are looked up, and when one is settled as not charged. */
import * as z from "zod/mini";
import { whole } from "./values";

export interface ReconcileConfig {
  /** GIVEKIT_RECONCILE_INTERVAL_S: how often unknown attempts are looked up in the transactions report (0: never on a timer). */
  reconcileIntervalS: number;
  /** GIVEKIT_RECONCILE_SETTLE_S: after this long with no report row, an unknown attempt is `not_charged`. */
  reconcileSettleS: number;
}

/** Each variable's default. */
export const RECONCILE_DEFAULTS = {
  GIVEKIT_RECONCILE_INTERVAL_S: "60",
  GIVEKIT_RECONCILE_SETTLE_S: "900",
} as const;

export const ReconcileVariablesSchema = z.object({
  GIVEKIT_RECONCILE_INTERVAL_S: whole(0, 24 * 3600),
  GIVEKIT_RECONCILE_SETTLE_S: whole(1, 7 * 24 * 3600),
});
export type ReconcileVariables = z.output<typeof ReconcileVariablesSchema>;

export function reconcileConfig(e: ReconcileVariables): ReconcileConfig {
  return {
    reconcileIntervalS: e.GIVEKIT_RECONCILE_INTERVAL_S,
    reconcileSettleS: e.GIVEKIT_RECONCILE_SETTLE_S,
  };
}
