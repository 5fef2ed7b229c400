/**
 * GIVEKIT_WEBHOOKS: the nonprofit's endpoints, as JSON: an array of
 * `{ "url": "https://…", "events": ["donation.succeeded", …], "secret": "…" }`.
 * Parsed once at start by config.ts; a bad value is a ConfigError naming the variable.
 */
import * as z from "zod/mini";
import { EVENT_TYPES } from "./events";

/** A secret shorter than this is refused: it keys the HMAC a receiver trusts. */
export const MIN_WEBHOOK_SECRET = 24;

export const WebhookEndpointSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }),
  events: z.array(z.enum(EVENT_TYPES)).check(z.minLength(1, "must list at least one event")),
  secret: z
    .string()
    .check(z.minLength(MIN_WEBHOOK_SECRET, `must be at least ${MIN_WEBHOOK_SECRET} characters`)),
  /** Deliver to an address in a private, loopback or link-local range (refused unless set). */
  allow_private: z.optional(z.boolean()),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

const EndpointsSchema = z.array(WebhookEndpointSchema);

/**
 * An endpoint as logs and the command line show it: origin and path only (a query string or
 * credentials in the URL may be a receiver's token).
 */
export function shownEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** The endpoints, or the reason (without any secret) the value cannot be used. */
export function parseWebhooks(
  value: string | undefined,
): { ok: true; endpoints: WebhookEndpoint[] } | { ok: false; message: string } {
  if (value === undefined || value.trim() === "") return { ok: true, endpoints: [] };
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return { ok: false, message: "is not JSON (an array of { url, events, secret })" };
  }
  const parsed = EndpointsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    return { ok: false, message: `${where}${issue.message}` };
  }
  return { ok: true, endpoints: parsed.data };
}
