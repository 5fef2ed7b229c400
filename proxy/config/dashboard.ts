/** The staff dashboard (proxy/dashboard/): the form's counted steps and how often an open page is told again. */
import * as z from "zod/mini";
import type { BucketConfig } from "./rate-limits";
import { MAX_COUNT, whole } from "./values";

/** The staff dashboard's settings (proxy/GUIDE.md, "The staff dashboard"). */
export interface DashboardConfig {
  /** GIVEKIT_DASHBOARD_CHANNELS: the most channels counted per campaign and hour; more are `other`. */
  channels: number;
  /** GIVEKIT_RATE_FORM_EVENTS(_PER_MIN): one address's beacons; past them a beacon counts nothing. */
  formEvents: BucketConfig;
  /** GIVEKIT_DASHBOARD_LIVE_S: how often an open dashboard gets its figures again. */
  liveS: number;
  /** GIVEKIT_DASHBOARD_KEEP_DAYS: hours of counts older than this many days are pruned. */
  keepDays: number;
}

/** Each variable's default. */
export const DASHBOARD_DEFAULTS = {
  GIVEKIT_DASHBOARD_CHANNELS: "20",
  GIVEKIT_DASHBOARD_LIVE_S: "5",
  // The longest period the page offers is 30 days: kept a fortnight longer.
  GIVEKIT_DASHBOARD_KEEP_DAYS: "45",
  GIVEKIT_RATE_FORM_EVENTS: "60",
  GIVEKIT_RATE_FORM_EVENTS_PER_MIN: "600",
} as const;

export const DashboardVariablesSchema = z.object({
  GIVEKIT_DASHBOARD_CHANNELS: whole(1, 200),
  GIVEKIT_DASHBOARD_LIVE_S: whole(1, 300),
  GIVEKIT_DASHBOARD_KEEP_DAYS: whole(31, 3660),
  GIVEKIT_RATE_FORM_EVENTS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_FORM_EVENTS_PER_MIN: whole(1, MAX_COUNT),
});
export type DashboardVariables = z.output<typeof DashboardVariablesSchema>;

export function dashboardConfig(e: DashboardVariables): { dashboard: DashboardConfig } {
  return {
    dashboard: {
      channels: e.GIVEKIT_DASHBOARD_CHANNELS,
      liveS: e.GIVEKIT_DASHBOARD_LIVE_S,
      keepDays: e.GIVEKIT_DASHBOARD_KEEP_DAYS,
      formEvents: { burst: e.GIVEKIT_RATE_FORM_EVENTS, perMin: e.GIVEKIT_RATE_FORM_EVENTS_PER_MIN },
    },
  };
}
