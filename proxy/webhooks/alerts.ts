/**
 * Alerts where the staff are: `alert.*` events on the nonprofit's own signed webhooks (the same
 * outbox, signature and retries as a gift's), so a Slack or e-mail bridge it already has can page
 * someone: defence mode starting, a circuit breaker opening, the upstream unreachable for a
 * minute, a webhook event given up. Each alert of one kind and scope is told once per
 * ALERT_QUIET_MS. Nothing in one names an address, a card or a donor.
 */
import type { Logger } from "pino";
import type { WebhookOutboxStore } from "../store";
import type { UpstreamClient } from "../upstream/client";
import { UpstreamUnreachableError } from "../upstream/errors";
import type { WebhookEndpoint } from "./endpoints";
import { makeEvent, type AlertData, type EventData } from "./events";
import { outboxRows } from "./from-attempt";

/** The same alert (kind and scope) is told again only after this long. */
export const ALERT_QUIET_MS = 10 * 60_000;
/** How long the upstream stays unreachable before it is told. */
export const UNREACHABLE_FOR_MS = 60_000;
/** How often the upstream is looked at while an endpoint wants its alert (GIVEKIT_UPSTREAM_WATCH_S's default). */
export const UPSTREAM_LOOK_MS = 10_000;

type AlertType =
  | "alert.defence_mode"
  | "alert.breaker_open"
  | "alert.upstream_unreachable"
  | "alert.webhooks_given_up";

/**
 * @example
 * const alerts = createAlerts({ store, endpoints: config.webhooks, logger });
 * await alerts.tell("alert.breaker_open", { summary: "…", scope: "71777/HOPE", reason: "declines", count: 15 });
 */
export function createAlerts(deps: {
  store: Pick<WebhookOutboxStore, "addWebhookEvents">;
  endpoints: readonly WebhookEndpoint[];
  logger: Pick<Logger, "warn">;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const told = new Map<string, number>();
  const wanted = (type: AlertType) => deps.endpoints.some((endpoint) => endpoint.events.includes(type));

  return {
    wanted,
    /** Writes the alert to the outbox for every endpoint that lists its type (once per quiet period). */
    async tell<T extends AlertType>(type: T, data: EventData[T]): Promise<void> {
      if (!wanted(type)) return;
      const key = `${type}\n${(data as AlertData).scope ?? ""}`;
      const at = now();
      if ((told.get(key) ?? -Infinity) > at - ALERT_QUIET_MS) return;
      told.set(key, at);
      try {
        await deps.store.addWebhookEvents(outboxRows(deps.endpoints, [makeEvent(type, data, new Date(at))]));
      } catch (error) {
        told.delete(key);
        deps.logger.warn(
          { event: "alert_unrecorded", type, error: String(error) },
          "an alert could not be written",
        );
      }
    },
  };
}

export type Alerts = ReturnType<typeof createAlerts>;

/**
 * Looks at the upstream every `lookMs` (a login, as `givekit doctor` does; twice as often once it
 * fails) and tells `alert.upstream_unreachable` once nothing has answered for UNREACHABLE_FOR_MS
 * since it last did. Each look is a login: a session token minted on the nonprofit's account.
 */
export function watchUpstream(deps: {
  alerts: Alerts;
  upstream: Pick<UpstreamClient, "login">;
  /** GIVEKIT_UPSTREAM_WATCH_S in ms; UPSTREAM_LOOK_MS when not given. */
  lookMs?: number;
  now?: () => number;
}): { timer: NodeJS.Timeout } {
  const now = deps.now ?? Date.now;
  let answeredAt = now();
  let down = false;
  let tick = 0;
  let looking = false;
  const look = async () => {
    tick++;
    if (looking || (!down && tick % 2 === 1)) return;
    looking = true;
    try {
      await deps.upstream.login();
      answeredAt = now();
      down = false;
    } catch (error) {
      if (!(error instanceof UpstreamUnreachableError)) {
        answeredAt = now();
        down = false;
        return;
      }
      down = true;
      if (now() - answeredAt >= UNREACHABLE_FOR_MS)
        await deps.alerts.tell("alert.upstream_unreachable", {
          summary: `The fundraising service has not answered since ${new Date(answeredAt).toISOString()}: donors cannot give.`,
          since: new Date(answeredAt).toISOString(),
          reason: error.reason,
        });
    } finally {
      looking = false;
    }
  };
  const timer = setInterval(() => void look(), (deps.lookMs ?? UPSTREAM_LOOK_MS) / 2);
  timer.unref();
  return { timer };
}
