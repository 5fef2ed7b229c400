/**
 * The proxy's configuration: read once from the environment at start, checked with zod. Each
 * concern's variables (their defaults, their checks, what they become) are in a file of this
 * folder; this loader reads the environment once, checks every variable, and puts the concerns'
 * parts together. A bad value throws a ConfigError naming the variable; server.ts prints it and
 * exits 1.
 *
 *   server.ts       PORT, HOST, GIVEKIT_WIDGET_DIR, GIVEKIT_METRICS_TOKEN, LOG_LEVEL, GIVEKIT_STOP_DELAY_S, GIVEKIT_KEEP_ALIVE_S, GIVEKIT_ALLOW_DEMO_SETUP
 *   upstream.ts     UPSTREAM_*
 *   network.ts      ALLOWED_ORIGINS, GIVEKIT_TRUST_PROXY
 *   store.ts        GIVEKIT_DATA_DIR, DATABASE_URL, GIVEKIT_DB_POOL_MAX, GIVEKIT_CLAIM_LEASE_S, GIVEKIT_SIGNING_SECRET, GIVEKIT_IDEMPOTENCY_RETENTION_H, GIVEKIT_STORE_START_WAIT_S
 *   campaigns.ts    GIVEKIT_CAMPAIGNS (the campaigns file), GIVEKIT_PEERS_CACHE_S, GIVEKIT_PROGRESS_CACHE_S
 *   rate-limits.ts  GIVEKIT_RATE_*, GIVEKIT_DECLINE_*
 *   defence.ts      GIVEKIT_MIN_FORM_MS, GIVEKIT_FORM_SESSION_*, GIVEKIT_DEFENCE_*, GIVEKIT_TOKEN_HOLD_S, GIVEKIT_IDENTITY_DECLINES, GIVEKIT_CHALLENGE_*, GIVEKIT_BREAKER_*, TURNSTILE_*
 *   reconcile.ts    GIVEKIT_RECONCILE_*
 *   webhooks.ts     GIVEKIT_WEBHOOKS, GIVEKIT_WEBHOOK_BACKOFF_MS
 *   dashboard.ts    GIVEKIT_DASHBOARD_*, GIVEKIT_RATE_FORM_EVENTS* (the staff dashboard)
 *   values.ts       what they share: ConfigError, whole numbers, ratios, paths
 */
import * as z from "zod/mini";
import {
  CAMPAIGNS_DEFAULTS,
  campaignsConfig,
  CampaignsVariablesSchema,
  type CampaignsConfig,
} from "./campaigns";
import {
  DEFENCE_DEFAULTS,
  DEFENCE_SECRETS,
  defenceConfig,
  DefenceVariablesSchema,
  type DefenceConfig,
} from "./defence";
import {
  DASHBOARD_DEFAULTS,
  dashboardConfig,
  DashboardVariablesSchema,
  type DashboardConfig,
} from "./dashboard";
import { NETWORK_DEFAULTS, networkConfig, NetworkVariablesSchema, type NetworkConfig } from "./network";
import {
  RATE_LIMITS_DEFAULTS,
  rateLimitsConfig,
  RateLimitsVariablesSchema,
  type RateLimitConfig,
} from "./rate-limits";
import {
  RECONCILE_DEFAULTS,
  reconcileConfig,
  ReconcileVariablesSchema,
  type ReconcileConfig,
} from "./reconcile";
import {
  SERVER_DEFAULTS,
  SERVER_SECRETS,
  serverConfig,
  ServerVariablesSchema,
  type ServerConfig,
} from "./server";
import { STORE_DEFAULTS, STORE_SECRETS, storeConfig, StoreVariablesSchema, type StoreConfig } from "./store";
import {
  UPSTREAM_DEFAULTS,
  UPSTREAM_SECRETS,
  upstreamConfig,
  UpstreamVariablesSchema,
  type UpstreamConfig,
} from "./upstream";
import { ConfigError } from "./values";
import {
  WEBHOOKS_DEFAULTS,
  WEBHOOKS_SECRETS,
  webhooksConfig,
  WebhooksVariablesSchema,
  type WebhooksConfig,
} from "./webhooks";

export { DEFAULT_CAMPAIGNS_PATH, loadCampaigns } from "./campaigns";
export type { DashboardConfig } from "./dashboard";
export type { BreakerConfig, DefenceConfig } from "./defence";
export { parseOrigin } from "./network";
export type { BucketConfig, RateLimitConfig } from "./rate-limits";
export { DEFAULT_STOP_DELAY_S, DEFAULT_WIDGET_DIR } from "./server";
export { LEASE_MARGIN_S, MIN_IDEMPOTENCY_RETENTION_H } from "./store";
export type { UpstreamConfig } from "./upstream";
export { ConfigError, packageRoot } from "./values";

export interface ProxyConfig
  extends ServerConfig, NetworkConfig, StoreConfig, CampaignsConfig, ReconcileConfig, WebhooksConfig {
  upstream: UpstreamConfig;
  rateLimits: RateLimitConfig;
  defence: DefenceConfig;
  dashboard: DashboardConfig;
  /** Variables set under an old name, each as a line the proxy logs at start: "OLD is now NEW". */
  deprecations: string[];
}

/** Every variable the proxy reads, with its default ("" = required or optional without one). */
export const CONFIG_DEFAULTS = {
  ...SERVER_DEFAULTS,
  ...UPSTREAM_DEFAULTS,
  ...NETWORK_DEFAULTS,
  ...STORE_DEFAULTS,
  ...CAMPAIGNS_DEFAULTS,
  ...RATE_LIMITS_DEFAULTS,
  ...DEFENCE_DEFAULTS,
  ...RECONCILE_DEFAULTS,
  ...WEBHOOKS_DEFAULTS,
  ...DASHBOARD_DEFAULTS,
} as const;

export type ConfigVariable = keyof typeof CONFIG_DEFAULTS;

/** Variables whose values are secret: never echoed in an error message. */
const SECRET_VARIABLES = new Set<ConfigVariable>([
  ...SERVER_SECRETS,
  ...UPSTREAM_SECRETS,
  ...STORE_SECRETS,
  ...DEFENCE_SECRETS,
  ...WEBHOOKS_SECRETS,
]);

const EnvSchema = z.object({
  ...ServerVariablesSchema.shape,
  ...UpstreamVariablesSchema.shape,
  ...NetworkVariablesSchema.shape,
  ...StoreVariablesSchema.shape,
  ...CampaignsVariablesSchema.shape,
  ...RateLimitsVariablesSchema.shape,
  ...DefenceVariablesSchema.shape,
  ...ReconcileVariablesSchema.shape,
  ...WebhooksVariablesSchema.shape,
  ...DashboardVariablesSchema.shape,
});

/** Variables renamed, by their old name: the old one still works, with a line in the log. */
const RENAMED: Partial<Record<string, ConfigVariable>> = {
  GIVEKIT_JOURNAL_SECRET: "GIVEKIT_SIGNING_SECRET",
};
/** Variables that no longer do anything, and what took their place: said in the log when set. */
const RETIRED: Record<string, string> = {
  GIVEKIT_DEFENCE_THROTTLE_PER_MIN:
    "GIVEKIT_DEFENCE_THROTTLE_PER_MIN no longer does anything: defence mode challenges every card (givekit's own proof of work, GIVEKIT_CHALLENGE_WORK) instead of throttling a campaign to a fixed rate; remove it",
};

/**
 * Parses the proxy's configuration from an environment (process.env in production).
 * Unset or empty variables take their defaults; the first bad value throws a ConfigError.
 *
 * @example
 * const config = loadConfig({ UPSTREAM_BASE_URL: "http://127.0.0.1:4010", UPSTREAM_PRIVATE_TOKEN: "…", UPSTREAM_PUBLIC_TOKEN: "…" });
 * config.port; // 8787
 */
export function loadConfig(given: Record<string, string | undefined>): ProxyConfig {
  const deprecations: string[] = [];
  const e = checkedVariables(given, deprecations);
  // The rules across variables, in this order: the store's (its key, its lease against the
  // upstream's timeouts), the webhooks', then the campaigns file read.
  const store = storeConfig(e);
  const webhooks = webhooksConfig(e);
  const campaigns = campaignsConfig(e);
  return {
    ...serverConfig(e),
    upstream: upstreamConfig(e),
    ...networkConfig(e, deprecations),
    ...store,
    ...campaigns,
    ...rateLimitsConfig(e, store.claimLeaseS),
    ...defenceConfig(e),
    ...reconcileConfig(e),
    ...webhooks,
    ...dashboardConfig(e),
    deprecations,
  };
}

/** The environment read once: old names taken over (with a line each), defaults filled in, every variable checked. */
function checkedVariables(given: Record<string, string | undefined>, deprecations: string[]) {
  const env = { ...given };
  for (const [old, current] of Object.entries(RENAMED)) {
    if (!env[old]?.trim()) continue;
    deprecations.push(`${old} is now ${current}; the old name still works, and will not always`);
    if (!env[current!]?.trim()) env[current!] = env[old];
  }
  for (const [old, why] of Object.entries(RETIRED)) if (env[old]?.trim()) deprecations.push(why);
  const input: Record<string, string> = {};
  for (const name of Object.keys(CONFIG_DEFAULTS) as ConfigVariable[]) {
    const value = env[name];
    input[name] = value === undefined || value.trim() === "" ? CONFIG_DEFAULTS[name] : value.trim();
  }
  const parsed = EnvSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]) as ConfigVariable;
    const shown =
      SECRET_VARIABLES.has(variable) || input[variable] === "" ? "" : ` (got "${input[variable]}")`;
    throw new ConfigError(variable, `${issue.message}${shown}`);
  }
  return parsed.data;
}
