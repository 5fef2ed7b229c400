/**
 * One delivery of one event to one endpoint, and when to try again. The outbox's dispatcher
 * (dispatch.ts, run by proxy/jobs.ts) calls these; nothing here waits on a donation's answer.
 *
 * - Signed with the endpoint's secret (signature.ts), body sent as-is.
 * - Redirects are not followed: a 3xx is a failed delivery, retried like a 500.
 * - An endpoint whose host resolves to a private, loopback or link-local address is refused
 *   unless it sets allow_private (proxy/GUIDE.md, "Webhooks").
 * - A 2xx within the timeout is delivered; anything else is retried with exponential backoff
 *   and jitter until the event is 3 days old.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { WebhookEndpoint } from "./endpoints";
import type { GivekitEvent } from "./events";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";

/** How long an event is retried before it is given up (and counted, never silently dropped). */
export const RETRY_FOR_MS = 3 * 24 * 3600 * 1000;
/** The longest wait between two tries. */
export const MAX_BACKOFF_MS = 6 * 3600 * 1000;
/** How long a receiver has to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The wait before try number `attempt` (1 for the first retry): base · 2^(attempt−1), at most
 * MAX_BACKOFF_MS, with "equal jitter" (half fixed, half random) so many proxies do not retry in step.
 */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export type DeliveryResult =
  | { outcome: "delivered"; status: number; ms: number }
  | { outcome: "failed"; status?: number; reason: string; ms: number }
  | { outcome: "refused"; reason: string; ms: number };

export interface DeliverOptions {
  timeoutMs?: number;
  nowS?: number;
  /** Resolves a host name to its addresses (tests give their own). */
  resolve?: (host: string) => Promise<string[]>;
  /** The event's JSON as the outbox keeps it (sent byte for byte); else `event` serialized. */
  body?: string;
  /** Ends the try early (the proxy is stopping): a failed delivery, tried again later. */
  signal?: AbortSignal;
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((entry) => entry.address);
}

/** Sends the event once. Never throws: every way a delivery can go wrong is a result. */
export async function deliverOnce(
  endpoint: WebhookEndpoint,
  event: GivekitEvent,
  options: DeliverOptions = {},
): Promise<DeliveryResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const url = new URL(endpoint.url);
  if (!endpoint.allow_private) {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await (options.resolve ?? resolveAll)(host);
    } catch {
      return { outcome: "failed", reason: "host did not resolve", ms: ms() };
    }
    if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
      return { outcome: "refused", reason: "endpoint resolves to a private address", ms: ms() };
    }
  }
  const body = options.body ?? JSON.stringify(event);
  const nowS = options.nowS ?? Math.floor(Date.now() / 1000);
  try {
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.any([
        AbortSignal.timeout(options.timeoutMs ?? DELIVERY_TIMEOUT_MS),
        ...(options.signal ? [options.signal] : []),
      ]),
      headers: {
        "content-type": "application/json",
        "user-agent": "givekit-webhooks/1",
        "givekit-event-id": event.id,
        "givekit-event-type": event.type,
        [SIGNATURE_HEADER]: signatureHeader(endpoint.secret, body, nowS),
      },
      body,
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) {
      return { outcome: "delivered", status: response.status, ms: ms() };
    }
    const reason =
      response.status >= 300 && response.status < 400
        ? "redirect not followed"
        : `answered ${response.status}`;
    return { outcome: "failed", status: response.status, reason, ms: ms() };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return { outcome: "failed", reason: timedOut ? "timed out" : "could not connect", ms: ms() };
  }
}
