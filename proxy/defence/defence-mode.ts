/**
 * Defence mode's periods: when a signal (signals.ts) crosses its threshold, defence mode starts
 * in its scope (every campaign, or the one) for every proxy, in the store's `defence_modes`
 * table; it ends `quietS` after the last crossing, and one proxy logs each end. Volume (a crowd
 * makes it too) and evidence of card testing both start it; evidence takes over a period volume
 * started. While it is on, every card in its scope is challenged (scrutiny.ts), nobody refused.
 */
import type { Logger } from "pino";
import { VOLUME_SIGNALS } from "../store/defence";
import type { DefenceState, DefenceStore } from "../store";

/** The scope of signals over every campaign; a campaign's scope is "shortcode/KEYWORD". */
export const ALL_SCOPE = "all";

export type DefenceSignal =
  | "tokens_per_min"
  | "declines_per_min"
  | "cards_per_min"
  | "decline_ratio"
  | "bin_run"
  /** One donor (e-mail, or name) declined from many clients: a tester's one identity behind many addresses. */
  | "donor_spread"
  /** One amount declined from many clients: a tester's one test charge behind many addresses. */
  | "amount_spread";

/** Evidence of card testing (declines, their share, a BIN run); the rest is volume (store/defence.ts). */
export const isEvidence = (signal: string) => !(VOLUME_SIGNALS as readonly string[]).includes(signal);

/** The scopes a tokenization or decline counts in: all campaigns', and its own when named. */
export const scopesOf = (campaign: string | undefined) => (campaign ? [ALL_SCOPE, campaign] : [ALL_SCOPE]);

/** The periods on now among `states`. */
export const activeDefences = (states: DefenceState[], now = Date.now()) =>
  states.filter((state) => !state.ended && state.until > now);

/**
 * Marks the periods whose quiet time is over as ended and logs each once (one proxy gets each).
 *
 * @example
 * setInterval(() => void logDefenceExits(store, logger), 5000);
 */
export async function logDefenceExits(store: DefenceStore, logger: Logger): Promise<void> {
  for (const state of await store.endDefences()) {
    logger.info(
      {
        event: "defence_mode_off",
        scope: state.scope,
        signal: state.signal,
        since: new Date(state.since).toISOString(),
        lastedS: Math.round((state.until - state.since) / 1000),
      },
      "defence mode ended: quiet period over",
    );
  }
}

/**
 * @example
 * const mode = createDefenceMode({ store, logger, quietS: 600, challenge: "pow" });
 * await mode.cross("71777/HOPE", "declines_per_min", 12); // defence_mode_on, logged once
 * (await mode.activeIn(scopesOf("71777/HOPE"))).length; // 1
 */
export function createDefenceMode(deps: {
  store: DefenceStore;
  logger: Logger;
  /** Defence mode ends this long after the last crossing, in seconds. */
  quietS: number;
  /** The challenge cards meet while it is on, for the log. */
  challenge: "turnstile" | "pow";
  /** Told once when a period starts (the alert). */
  onEnter?: (scope: string, signal: string, value: number) => void;
}) {
  const { store, logger } = deps;
  return {
    /** The periods on now in these scopes, or in every scope; one over but not yet told is logged on the way. */
    async activeIn(scopes?: string[]): Promise<DefenceState[]> {
      const states = await store.defenceStates(scopes);
      const now = Date.now();
      if (scopes && states.some((state) => !state.ended && state.until <= now))
        await logDefenceExits(store, logger);
      return activeDefences(states, now);
    },

    /** A signal over its threshold: starts defence mode in its scope, or keeps it on another quiet period. */
    async cross(scope: string, signal: DefenceSignal, value: number, extra: object = {}): Promise<void> {
      // A period over but not yet told is told before a new one starts.
      await logDefenceExits(store, logger);
      // Evidence over a period that volume started: read before, to tell that it takes over.
      const before = isEvidence(signal) ? (await store.defenceStates([scope]))[0] : undefined;
      const { entered, state } = await store.crossDefence(scope, signal, value, deps.quietS * 1000);
      if (!entered && before && activeDefences([before]).length > 0 && !isEvidence(before.signal)) {
        if (state.signal === signal)
          logger.warn(
            { event: "defence_mode_evidence", scope, signal, value, ...extra, was: before.signal },
            "defence mode: card testing suspected during high volume",
          );
      }
      if (entered) {
        deps.onEnter?.(scope, signal, value);
        logger.warn(
          { event: "defence_mode_on", scope, signal, value, ...extra, challenge: deps.challenge },
          isEvidence(signal)
            ? "defence mode started: card testing suspected; cards are challenged"
            : "defence mode started: high volume; cards are challenged, nobody refused",
        );
      }
    },
  };
}

export type DefenceMode = ReturnType<typeof createDefenceMode>;
