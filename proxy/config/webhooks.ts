/**
 * Webhooks: the nonprofit's endpoints (GIVEKIT_WEBHOOKS), a failed delivery's back-off and how long
 * it is retried, and how often the upstream is looked at for its alert.
 */
import * as z from "zod/mini";
import { parseWebhooks, type WebhookEndpoint } from "../webhooks/endpoints";
import { ConfigError, whole } from "./values";

export interface WebhooksConfig {
  /** GIVEKIT_WEBHOOKS: the nonprofit's endpoints (proxy/GUIDE.md, "Webhooks"); [] sends none. */
  webhooks: WebhookEndpoint[];
  /** GIVEKIT_WEBHOOK_BACKOFF_MS: a failed delivery's first wait; each next one doubles (at most 6 h). */
  webhookBackoffMs: number;
  /** GIVEKIT_WEBHOOK_GIVE_UP_S: an event still failing this long after it was made is given up. */
  webhookGiveUpS: number;
  /** GIVEKIT_UPSTREAM_WATCH_S: the upstream's login looked at this often (twice as often while down) for its alert. */
  upstreamWatchS: number;
}

/** Each variable's default ("" = required or optional without one). */
export const WEBHOOKS_DEFAULTS = {
  GIVEKIT_WEBHOOKS: "",
  GIVEKIT_WEBHOOK_BACKOFF_MS: "30000",
  GIVEKIT_WEBHOOK_GIVE_UP_S: String(3 * 24 * 3600),
  GIVEKIT_UPSTREAM_WATCH_S: "10",
} as const;

/** Never echoed in an error message. */
export const WEBHOOKS_SECRETS = ["GIVEKIT_WEBHOOKS"] as const;

export const WebhooksVariablesSchema = z.object({
  /** Read by parseWebhooks in webhooksConfig (JSON, with secrets: never echoed). */
  GIVEKIT_WEBHOOKS: z.string(),
  GIVEKIT_WEBHOOK_BACKOFF_MS: whole(10, 3_600_000),
  GIVEKIT_WEBHOOK_GIVE_UP_S: whole(1, 30 * 24 * 3600),
  // At most 30 s, so the upstream's alert still comes within about a minute and a half.
  GIVEKIT_UPSTREAM_WATCH_S: whole(2, 30),
});
export type WebhooksVariables = z.output<typeof WebhooksVariablesSchema>;

export function webhooksConfig(e: WebhooksVariables): WebhooksConfig {
  const webhooks = parseWebhooks(e.GIVEKIT_WEBHOOKS);
  if (!webhooks.ok) throw new ConfigError("GIVEKIT_WEBHOOKS", webhooks.message);
  return {
    webhooks: webhooks.endpoints,
    webhookBackoffMs: e.GIVEKIT_WEBHOOK_BACKOFF_MS,
    webhookGiveUpS: e.GIVEKIT_WEBHOOK_GIVE_UP_S,
    upstreamWatchS: e.GIVEKIT_UPSTREAM_WATCH_S,
  };
}
