/** Webhooks: the nonprofit's endpoints (GIVEKIT_WEBHOOKS) and a failed delivery's back-off. */
import * as z from "zod/mini";
import { parseWebhooks, type WebhookEndpoint } from "../webhooks/endpoints";
import { ConfigError, whole } from "./values";

export interface WebhooksConfig {
  /** GIVEKIT_WEBHOOKS: the nonprofit's endpoints (proxy/GUIDE.md, "Webhooks"); [] sends none. */
  webhooks: WebhookEndpoint[];
  /** GIVEKIT_WEBHOOK_BACKOFF_MS: a failed delivery's first wait; each next one doubles (at most 6 h). */
  webhookBackoffMs: number;
}

/** Each variable's default ("" = required or optional without one). */
export const WEBHOOKS_DEFAULTS = {
  GIVEKIT_WEBHOOKS: "",
  GIVEKIT_WEBHOOK_BACKOFF_MS: "30000",
} as const;

/** Never echoed in an error message. */
export const WEBHOOKS_SECRETS = ["GIVEKIT_WEBHOOKS"] as const;

export const WebhooksVariablesSchema = z.object({
  /** Read by parseWebhooks in webhooksConfig (JSON, with secrets: never echoed). */
  GIVEKIT_WEBHOOKS: z.string(),
  GIVEKIT_WEBHOOK_BACKOFF_MS: whole(10, 3_600_000),
});
export type WebhooksVariables = z.output<typeof WebhooksVariablesSchema>;

export function webhooksConfig(e: WebhooksVariables): WebhooksConfig {
  const webhooks = parseWebhooks(e.GIVEKIT_WEBHOOKS);
  if (!webhooks.ok) throw new ConfigError("GIVEKIT_WEBHOOKS", webhooks.message);
  return { webhooks: webhooks.endpoints, webhookBackoffMs: e.GIVEKIT_WEBHOOK_BACKOFF_MS };
}
