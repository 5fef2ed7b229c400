/**
 * The webhook outbox's dispatcher, one per proxy (started by proxy/jobs.ts): every poll it claims
 * the events due (proxy/store: one proxy per event, under a lease; in order per donation and
 * endpoint) and delivers each once (deliver.ts), up to MAX_IN_FLIGHT at a time, so a slow receiver
 * holds only its own events. A failed try is due again after an exponential backoff with jitter;
 * an event still failing 3 days (GIVEKIT_WEBHOOK_GIVE_UP_S) after it was made is given up (`dead`,
 * for `givekit webhooks retry`). Nothing here runs on a donation's path: its answer never waits for a receiver.
 */
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { OutboxRow, Store } from "../store";
import { backoffMs, deliverOnce, DELIVERY_TIMEOUT_MS, RETRY_FOR_MS, type DeliveryResult } from "./deliver";
import { shownEndpoint, type WebhookEndpoint } from "./endpoints";
import type { GivekitEvent } from "./events";

/** How long a claimed event is this proxy's: well past a delivery's timeout. */
export const WEBHOOK_LEASE_MS = 6 * DELIVERY_TIMEOUT_MS;
/** Deliveries one proxy runs at once. */
export const MAX_IN_FLIGHT = 16;
/** The longest wait between two polls of the outbox. */
export const MAX_POLL_MS = 1000;

/** What one try came to, for the metrics: delivered, failed, refused, given_up, lease_lost. */
export type DeliveryOutcome = "delivered" | "failed" | "refused" | "given_up" | "lease_lost";

export interface DispatcherOptions {
  store: Pick<Store, "claimWebhooks" | "webhookDelivered" | "webhookFailed">;
  endpoints: readonly WebhookEndpoint[];
  /** GIVEKIT_WEBHOOK_BACKOFF_MS: the first retry's wait; each next one doubles (at most 6 h). */
  backoffBaseMs: number;
  logger?: Pick<Logger, "info" | "warn">;
  /** Counts each try by outcome. */
  onOutcome?: (outcome: DeliveryOutcome) => void;
  /** Told of each event given up (the alert). */
  onGiveUp?: (row: OutboxRow) => void;
  /** GIVEKIT_WEBHOOK_GIVE_UP_S in ms: how long an event is retried; RETRY_FOR_MS (3 days) when not given. */
  retryForMs?: number;
  owner?: string;
  now?: () => number;
  deliver?: typeof deliverOnce;
}

export function createDispatcher(options: DispatcherOptions) {
  const now = options.now ?? Date.now;
  const retryForMs = options.retryForMs ?? RETRY_FOR_MS;
  const owner = options.owner ?? `webhooks-${randomBytes(8).toString("hex")}`;
  const deliver = options.deliver ?? deliverOnce;
  const byUrl = new Map(options.endpoints.map((endpoint) => [endpoint.url, endpoint]));
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let claiming = false;

  async function settle(row: OutboxRow, result: DeliveryResult): Promise<DeliveryOutcome> {
    const { store } = options;
    if (result.outcome === "delivered") {
      const kept = await store.webhookDelivered(row.seq, owner, result.status);
      return kept ? "delivered" : "lease_lost";
    }
    const at = now();
    const nextAt = at + backoffMs(row.attempts, options.backoffBaseMs);
    const giveUp = nextAt - row.created_at > retryForMs;
    const status = result.outcome === "failed" ? (result.status ?? null) : null;
    const kept = await store.webhookFailed(row.seq, owner, { status, error: result.reason, nextAt, giveUp });
    if (!kept) return "lease_lost";
    const fields = {
      event: row.event_id,
      type: row.event_type,
      endpoint: shownEndpoint(row.endpoint),
      tries: row.attempts,
    };
    if (giveUp) {
      options.logger?.warn(
        { ...fields, reason: result.reason, retriedForS: Math.round(retryForMs / 1000) },
        "webhook event given up",
      );
      options.onGiveUp?.(row);
    } else
      options.logger?.info(
        { ...fields, reason: result.reason, retryAt: new Date(nextAt).toISOString() },
        "webhook delivery failed",
      );
    return giveUp ? "given_up" : result.outcome;
  }

  async function run(row: OutboxRow): Promise<void> {
    const endpoint = byUrl.get(row.endpoint);
    let result: DeliveryResult;
    if (!endpoint) {
      // Kept for an endpoint taken out of GIVEKIT_WEBHOOKS: waits (and is given up) like a failure.
      result = { outcome: "failed", reason: "endpoint no longer configured", ms: 0 };
    } else {
      const event = JSON.parse(row.body) as GivekitEvent;
      result = await deliver(endpoint, event, { body: row.body, signal: stopping.signal });
    }
    if (stopping.signal.aborted) {
      // The proxy is stopping: the event is due again at once, for another proxy (or this one's
      // next start); were this write lost, its lease runs out. The receiver may have had it.
      await options.store
        .webhookFailed(row.seq, owner, { status: null, error: "proxy stopped", nextAt: now(), giveUp: false })
        .catch(() => undefined);
      return;
    }
    try {
      options.onOutcome?.(await settle(row, result));
    } catch (error) {
      options.logger?.warn(
        { event: row.event_id, error: error instanceof Error ? error.message : String(error) },
        "a webhook delivery's outcome was not recorded; the event is delivered again once its lease ends",
      );
    }
  }

  /** Claims what is due and starts delivering it; resolves once claimed (not delivered). */
  async function poll(): Promise<number> {
    if (claiming || stopping.signal.aborted || options.endpoints.length === 0) return 0;
    const room = MAX_IN_FLIGHT - inFlight.size;
    if (room <= 0) return 0;
    claiming = true;
    let rows: OutboxRow[];
    try {
      rows = await options.store.claimWebhooks(owner, WEBHOOK_LEASE_MS, room);
    } catch (error) {
      options.logger?.warn(
        { error: error instanceof Error ? error.message : String(error) },
        "webhook outbox claim failed",
      );
      return 0;
    } finally {
      claiming = false;
    }
    for (const row of rows) {
      const delivery = run(row).finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    }
    return rows.length;
  }

  let timer: NodeJS.Timeout | undefined;
  return {
    owner,
    poll,
    /** Resolves when every delivery started so far has settled. */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    /** Polls every `pollMs` (the timer keeps no process alive). */
    start(pollMs: number): void {
      timer ??= setInterval(() => void poll(), pollMs);
      timer.unref();
      void poll();
    },
    /**
     * Stops polling and ends the tries in flight; resolves once their events are given back, due
     * at once for another proxy (at least once: the receiver may have had them).
     */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      stopping.abort();
      await Promise.allSettled(inFlight);
    },
  };
}

/** How often the outbox is polled: the backoff's base when shorter than MAX_POLL_MS (tests), never under 20 ms. */
export function pollIntervalMs(backoffBaseMs: number): number {
  return Math.max(20, Math.min(MAX_POLL_MS, backoffBaseMs));
}
