/**
 * The proxy's configuration: read once from the environment at start, checked with zod.
 * A bad value throws a ConfigError naming the variable; server.ts prints it and exits 1.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";
import { compileTrust, isLoopbackHost } from "./client-ip";
import { CampaignSchema, DisplaySettingsSchema, type Campaign } from "../contract/api";
import { toCents } from "../contract/money";
import { parseWebhooks, type WebhookEndpoint } from "./webhooks/endpoints";

/**
 * Where the package's own files are, so defaults work from any working directory: the nearest
 * folder above this module with a package.json (this file runs from proxy/ as source, and from
 * dist/server/ once built).
 */
export function packageRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

const REPO_ROOT = packageRoot();

export const DEFAULT_CAMPAIGNS_PATH = resolve(REPO_ROOT, "proxy/campaigns.demo.json");
export const DEFAULT_WIDGET_DIR = resolve(REPO_ROOT, "dist/widget");

/** The idempotency window may be longer than this, never shorter (Stripe and the IETF draft keep ≥ 24 h). */
export const MIN_IDEMPOTENCY_RETENTION_H = 24;

/** A per-client token bucket: `burst` requests at once, refilled at `perMin` a minute. */
export interface BucketConfig {
  burst: number;
  perMin: number;
}

/** Per-client limits (proxy/GUIDE.md, "Limits and defences"). */
export interface RateLimitConfig {
  paymentTokens: BucketConfig;
  donations: BucketConfig;
  subscriptions: BucketConfig;
  /** Status lookups (GET /v1/donations/{reference}): a Pending screen polls, so a bucket of its own. */
  donationStatus: BucketConfig;
  /** Card frames' form sessions (POST /v1/form-sessions). */
  formSessions: BucketConfig;
  /** Declined donations per client within declineWindowS that, at declineRatio of its tokenizations or more, start the block. */
  declineLimit: number;
  declineRatio: number;
  declineWindowS: number;
  /** How long a blocked client may not tokenize cards or donate, in seconds. */
  declineBlockS: number;
  /** How long a donation counts as at the upstream if its proxy never says it is done (the claim's lease). */
  inFlightTtlS: number;
}

/** The budgets of cards reaching the network and the breakers past them (proxy/GUIDE.md, "Circuit breakers"). */
export interface BreakerConfig {
  /** The window the budgets count in, in seconds. */
  windowS: number;
  /** Declines, and tokenizations not (yet) answered by a charge or a decline, one client may reach the network with in the window. */
  clientDeclines: number;
  clientTokens: number;
  /** The same for one campaign, over every client. */
  campaignDeclines: number;
  campaignTokens: number;
  /** What each charge in a scope adds to both its budgets: a crowd's share of declined cards is not card testing. */
  successShare: number;
  /** How long a breaker first stays open, in seconds; each probe declined doubles it (up to windowS). */
  openS: number;
}

/** Card-testing defences (proxy/GUIDE.md, "Limits and defences"). */
export interface DefenceConfig {
  /** Least time between the proxy issuing a card frame's form session and a tokenization, in ms; 0 turns the check off. */
  minFormMs: number;
  /** How long a form session lasts (the frame renews it while open), in seconds. */
  formSessionTtlS: number;
  /** Tokenizations one form session may make, and distinct cards among them. */
  formSessionTokenizations: number;
  formSessionCards: number;
  /** Card tokenizations per minute, all campaigns, that start defence mode. */
  tokensPerMin: number;
  /** Declined donations per minute, all campaigns, that start defence mode. */
  declinesPerMin: number;
  /** Distinct cards (keyed hashes) tokenized per minute that start defence mode. */
  cardsPerMin: number;
  /** Declines / tokenizations over windowS at or above which defence mode starts (after minSample tokenizations). */
  declineRatio: number;
  windowS: number;
  minSample: number;
  /** The same three per campaign (the decline ratio and its sample apply per campaign too). */
  campaignTokensPerMin: number;
  campaignDeclinesPerMin: number;
  campaignCardsPerMin: number;
  /** Distinct cards of one BIN with near-identical numbers (same last-4 hundred) within binWindowS. */
  binCards: number;
  binWindowS: number;
  /** Defence mode ends this long after the last signal over its threshold, in seconds. */
  quietS: number;
  /** Form sessions one client may mint in a session's TTL before its new ones are marked bulk (challenged). */
  formSessionBulk: number;
  /** A card token older than this at its donation is made again (a person donates at once), in seconds. */
  tokenHoldS: number;
  /** Declines of one donor (e-mail) or one card, within the decline window, that refuse them for it. */
  identityDeclines: number;
  /** Distinct clients one donor (e-mail) gives from, within the decline window, that put its campaign in defence mode. */
  donorSpreadClients: number;
  /** Distinct clients one amount is declined from, within the decline window, that put its campaign in defence mode. */
  amountSpreadClients: number;
  /** givekit's own challenge, a proof of work: its mean work at level 0, its top level, its life. */
  pow: { work: number; maxLevel: number; ttlS: number };
  /** The circuit breakers on cards reaching the network, per client and per campaign (defence/breaker.ts). */
  breaker: BreakerConfig;
  /** Cloudflare Turnstile, asked instead of the proof of work when configured; null: the proof of work. */
  turnstile: {
    siteKey: string;
    secret: string;
    verifyUrl: string;
    /** The script the card frame loads to show the challenge (only when the proxy asks). */
    scriptUrl: string;
    timeoutMs: number;
  } | null;
}

export interface UpstreamConfig {
  baseUrl: string;
  privateToken: string;
  publicToken: string;
  connectTimeoutMs: number;
  timeoutMs: number;
}

export interface ProxyConfig {
  port: number;
  host: string;
  upstream: UpstreamConfig;
  /** Origins (scheme://host[:port]) whose pages may call the API and frame the card form. */
  allowedOrigins: string[];
  dataDir: string;
  /** PostgreSQL connection URL (DATABASE_URL); null: the SQLite store in dataDir. */
  databaseUrl: string | null;
  /** Most connections to PostgreSQL per proxy. */
  dbPoolMax: number;
  /** How long a claim on an idempotency key holds without its proxy finishing it, in seconds. */
  claimLeaseS: number;
  campaignsPath: string;
  campaigns: Campaign[];
  /**
   * GIVEKIT_TRUST_PROXY: the reverse proxies whose X-Forwarded-For is believed, by address, range
   * or name (loopback, linklocal, uniquelocal); [] believes none. `explicit`: set by the operator
   * (not the loopback default), so a trusted peer without the header is worth a warning.
   */
  trustProxy: { addresses: string[]; explicit: boolean };
  widgetDir: string;
  /** Key of the body fingerprint HMAC; null means "generate one and keep it in the data dir". */
  signingSecret: string | null;
  idempotencyRetentionH: number;
  rateLimits: RateLimitConfig;
  defence: DefenceConfig;
  peersCacheS: number;
  /** GIVEKIT_PROGRESS_CACHE_S: how long a campaign's progress is kept before the report is read again. */
  progressCacheS: number;
  /** GIVEKIT_RECONCILE_INTERVAL_S: how often unknown attempts are looked up in the transactions report (0: never on a timer). */
  reconcileIntervalS: number;
  /** GIVEKIT_RECONCILE_SETTLE_S: after this long with no report row, an unknown attempt is `not_charged`. */
  reconcileSettleS: number;
  /** Variables set under an old name, each as a line the proxy logs at start: "OLD is now NEW". */
  deprecations: string[];
  /** GIVEKIT_METRICS_TOKEN: the Bearer token of GET /metrics; null: no /metrics at all (404). */
  metricsToken: string | null;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /**
   * GIVEKIT_STOP_DELAY_S: after a stop signal, how long readiness answers 503 before the listener
   * closes, so load balancers stop sending first (default 5 s; 0 when listening on loopback).
   */
  stopDelayMs: number;
  /** GIVEKIT_STORE_START_WAIT_S: how long a starting proxy retries a database it cannot reach. */
  storeStartWaitS: number;
  /** GIVEKIT_ALLOW_DEMO_SETUP=true: serve with NODE_ENV=production despite the demo campaigns or no allowed origins. */
  allowDemoSetup: boolean;
  /** GIVEKIT_WEBHOOKS: the nonprofit's endpoints (proxy/GUIDE.md, "Webhooks"); [] sends none. */
  webhooks: WebhookEndpoint[];
  /** GIVEKIT_WEBHOOK_BACKOFF_MS: a failed delivery's first wait; each next one doubles (at most 6 h). */
  webhookBackoffMs: number;
}

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

/** Every variable the proxy reads, with its default ("" = required or optional without one). */
export const CONFIG_DEFAULTS = {
  PORT: "8787",
  HOST: "127.0.0.1",
  UPSTREAM_BASE_URL: "",
  UPSTREAM_PRIVATE_TOKEN: "",
  UPSTREAM_PUBLIC_TOKEN: "",
  UPSTREAM_CONNECT_TIMEOUT_MS: "3000",
  UPSTREAM_TIMEOUT_MS: "15000",
  ALLOWED_ORIGINS: "",
  GIVEKIT_DATA_DIR: "./data",
  DATABASE_URL: "",
  GIVEKIT_DB_POOL_MAX: "10",
  GIVEKIT_CLAIM_LEASE_S: "",
  GIVEKIT_CAMPAIGNS: DEFAULT_CAMPAIGNS_PATH,
  GIVEKIT_TRUST_PROXY: "",
  GIVEKIT_WIDGET_DIR: DEFAULT_WIDGET_DIR,
  GIVEKIT_SIGNING_SECRET: "",
  GIVEKIT_IDEMPOTENCY_RETENTION_H: "24",
  GIVEKIT_RATE_PAYMENT_TOKENS: "10",
  GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN: "120",
  GIVEKIT_RATE_DONATIONS: "10",
  GIVEKIT_RATE_DONATIONS_PER_MIN: "120",
  GIVEKIT_RATE_SUBSCRIPTIONS: "10",
  GIVEKIT_RATE_SUBSCRIPTIONS_PER_MIN: "120",
  GIVEKIT_RATE_DONATION_STATUS: "120",
  GIVEKIT_RATE_DONATION_STATUS_PER_MIN: "600",
  GIVEKIT_RATE_FORM_SESSIONS: "60",
  GIVEKIT_RATE_FORM_SESSIONS_PER_MIN: "240",
  GIVEKIT_DECLINE_LIMIT: "5",
  GIVEKIT_DECLINE_RATIO: "0.5",
  GIVEKIT_DECLINE_WINDOW_S: "600",
  GIVEKIT_DECLINE_BLOCK_S: "3600",
  GIVEKIT_MIN_FORM_MS: "1500",
  GIVEKIT_FORM_SESSION_TTL_S: "7200",
  GIVEKIT_FORM_SESSION_TOKENIZATIONS: "5",
  GIVEKIT_FORM_SESSION_CARDS: "3",
  GIVEKIT_DEFENCE_TOKENS_PER_MIN: "60",
  GIVEKIT_DEFENCE_DECLINES_PER_MIN: "10",
  GIVEKIT_DEFENCE_CARDS_PER_MIN: "40",
  GIVEKIT_DEFENCE_DECLINE_RATIO: "0.5",
  GIVEKIT_DEFENCE_WINDOW_S: "600",
  GIVEKIT_DEFENCE_MIN_SAMPLE: "20",
  GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN: "30",
  GIVEKIT_DEFENCE_CAMPAIGN_DECLINES_PER_MIN: "6",
  GIVEKIT_DEFENCE_CAMPAIGN_CARDS_PER_MIN: "20",
  GIVEKIT_DEFENCE_BIN_CARDS: "6",
  GIVEKIT_DEFENCE_BIN_WINDOW_S: "600",
  GIVEKIT_DEFENCE_QUIET_S: "1800",
  GIVEKIT_FORM_SESSION_BULK: "20",
  GIVEKIT_TOKEN_HOLD_S: "300",
  GIVEKIT_IDENTITY_DECLINES: "3",
  GIVEKIT_DEFENCE_DONOR_CLIENTS: "3",
  GIVEKIT_DEFENCE_AMOUNT_CLIENTS: "5",
  GIVEKIT_CHALLENGE_WORK: "5000",
  GIVEKIT_CHALLENGE_MAX_LEVEL: "3",
  GIVEKIT_CHALLENGE_TTL_S: "300",
  GIVEKIT_BREAKER_WINDOW_S: "600",
  GIVEKIT_BREAKER_CLIENT_DECLINES: "6",
  GIVEKIT_BREAKER_CLIENT_TOKENS: "8",
  GIVEKIT_BREAKER_CAMPAIGN_DECLINES: "15",
  GIVEKIT_BREAKER_CAMPAIGN_TOKENS: "20",
  GIVEKIT_BREAKER_SUCCESS_SHARE: "0.1",
  GIVEKIT_BREAKER_OPEN_S: "30",
  TURNSTILE_SITE_KEY: "",
  TURNSTILE_SECRET: "",
  TURNSTILE_VERIFY_URL: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  TURNSTILE_SCRIPT_URL: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
  TURNSTILE_TIMEOUT_MS: "3000",
  GIVEKIT_PEERS_CACHE_S: "60",
  GIVEKIT_PROGRESS_CACHE_S: "60",
  GIVEKIT_RECONCILE_INTERVAL_S: "60",
  GIVEKIT_RECONCILE_SETTLE_S: "900",
  GIVEKIT_METRICS_TOKEN: "",
  LOG_LEVEL: "info",
  GIVEKIT_STOP_DELAY_S: "",
  GIVEKIT_STORE_START_WAIT_S: "60",
  GIVEKIT_ALLOW_DEMO_SETUP: "false",
  GIVEKIT_WEBHOOKS: "",
  GIVEKIT_WEBHOOK_BACKOFF_MS: "30000",
} as const;

export type ConfigVariable = keyof typeof CONFIG_DEFAULTS;

/** Variables whose values are secret: never echoed in an error message. */
const SECRET_VARIABLES = new Set<ConfigVariable>([
  "UPSTREAM_PRIVATE_TOKEN",
  "UPSTREAM_PUBLIC_TOKEN",
  "GIVEKIT_SIGNING_SECRET",
  "DATABASE_URL",
  "TURNSTILE_SECRET",
  "GIVEKIT_METRICS_TOKEN",
  "GIVEKIT_WEBHOOKS",
]);

const MAX_COUNT = 1_000_000;
/** Seconds readiness says "stopping" before the listener closes, when not on loopback. */
export const DEFAULT_STOP_DELAY_S = 5;
/** What a claim's lease adds to the longest upstream call, by default, in seconds. */
export const LEASE_MARGIN_S = 5;
const MAX_SECONDS = 30 * 24 * 3600;
const MAX_TIMEOUT_MS = 600_000;

function whole(min: number, max: number) {
  return z.pipe(
    z.string().check(z.regex(/^\d{1,9}$/, "must be a whole number")),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.number().check(z.gte(min, `must be at least ${min}`), z.lte(max, `must be at most ${max}`)),
    ),
  );
}

// A token goes inside `Token token="…"`: no quotes, spaces or control characters.
const Token = z
  .string()
  .check(
    z.minLength(1, "is required"),
    z.maxLength(512, "is too long"),
    z.regex(/^[\x21\x23-\x7e]+$/, "may hold only visible ASCII characters other than a double quote"),
  );

const HttpUrl = z.string().check(
  z.minLength(1, "is required (the upstream API's base URL, such as http://127.0.0.1:4010)"),
  z.refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL without credentials"),
);

const PostgresUrl = z.string().check(
  z.refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return (url.protocol === "postgres:" || url.protocol === "postgresql:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be a URL such as postgres://user:password@host:5432/database"),
);

const Origins = z.pipe(
  z.string(),
  z.transform((value: string, ctx) => {
    const origins: string[] = [];
    for (const item of value.split(",")) {
      const text = item.trim();
      if (text === "") continue;
      const origin = parseOrigin(text);
      if (origin === null) {
        ctx.issues.push({
          code: "custom",
          input: text,
          message: `"${text}" is not an origin such as https://www.example.org`,
        });
        continue;
      }
      origins.push(origin);
    }
    return [...new Set(origins)];
  }),
);

/** GIVEKIT_TRUST_PROXY's new form, for the messages that name it. */
const TRUST_FORM =
  'name the reverse proxies by address or range, e.g. GIVEKIT_TRUST_PROXY=loopback (nginx or Caddy on this host), "loopback,10.0.0.0/8", or "none"';

/**
 * "" (the default: loopback when HOST is a loopback address), "none" or "false", or a list of
 * addresses and ranges. The old hop counts: "true" and "1" mean one reverse proxy on this host
 * (loopback, with a deprecation line); more hops are refused, as a count cannot say who to trust.
 */
const TrustProxy = z.pipe(
  z.string(),
  z.transform((text: string, ctx) => {
    const value = text.trim().toLowerCase();
    if (value === "" || value === "none" || value === "false" || value === "0")
      return { addresses: [] as string[], explicit: value !== "", hops: null as number | null };
    if (value === "true" || /^\d{1,2}$/.test(value)) {
      const hops = value === "true" ? 1 : Number(value);
      if (hops === 1) return { addresses: ["loopback"], explicit: true, hops };
      ctx.issues.push({
        code: "custom",
        input: text,
        message: `a number of hops (${hops}) no longer says whom to trust: ${TRUST_FORM}`,
      });
      return z.NEVER;
    }
    const addresses = value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    try {
      compileTrust(addresses);
    } catch (error) {
      ctx.issues.push({
        code: "custom",
        input: text,
        message: `${(error as Error).message.replace(/^invalid /, "holds an invalid ")}: ${TRUST_FORM}`,
      });
      return z.NEVER;
    }
    return { addresses, explicit: true, hops: null as number | null };
  }),
);

const Ratio = z.pipe(
  z.string(),
  z.transform((text, ctx) => {
    const value = Number(text);
    if (text.trim() === "" || !(value > 0 && value <= 1)) {
      ctx.issues.push({ code: "custom", input: text, message: "must be a number above 0 and at most 1" });
      return z.NEVER;
    }
    return value;
  }),
);

const EnvSchema = z.object({
  PORT: whole(0, 65535),
  HOST: z.string().check(z.minLength(1, "is required")),
  UPSTREAM_BASE_URL: HttpUrl,
  UPSTREAM_PRIVATE_TOKEN: Token,
  UPSTREAM_PUBLIC_TOKEN: Token,
  UPSTREAM_CONNECT_TIMEOUT_MS: whole(1, MAX_TIMEOUT_MS),
  UPSTREAM_TIMEOUT_MS: whole(1, MAX_TIMEOUT_MS),
  ALLOWED_ORIGINS: Origins,
  GIVEKIT_DATA_DIR: z.string().check(z.minLength(1, "is required")),
  DATABASE_URL: PostgresUrl,
  GIVEKIT_DB_POOL_MAX: whole(1, 1000),
  GIVEKIT_CLAIM_LEASE_S: z.string().check(z.regex(/^(\d{1,4})?$/, "must be a whole number of seconds")),
  GIVEKIT_CAMPAIGNS: z.string().check(z.minLength(1, "is required")),
  GIVEKIT_TRUST_PROXY: TrustProxy,
  GIVEKIT_WIDGET_DIR: z.string().check(z.minLength(1, "is required")),
  GIVEKIT_SIGNING_SECRET: z
    .string()
    .check(
      z.refine((value) => value === "" || value.length >= 32, "must be at least 32 characters when set"),
    ),
  GIVEKIT_IDEMPOTENCY_RETENTION_H: whole(MIN_IDEMPOTENCY_RETENTION_H, 24 * 365),
  GIVEKIT_RATE_PAYMENT_TOKENS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_RATE_DONATIONS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_DONATIONS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_RATE_SUBSCRIPTIONS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_SUBSCRIPTIONS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_RATE_DONATION_STATUS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_DONATION_STATUS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_RATE_FORM_SESSIONS: whole(1, MAX_COUNT),
  GIVEKIT_RATE_FORM_SESSIONS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_DECLINE_LIMIT: whole(1, MAX_COUNT),
  GIVEKIT_DECLINE_RATIO: Ratio,
  GIVEKIT_DECLINE_WINDOW_S: whole(1, MAX_SECONDS),
  GIVEKIT_DECLINE_BLOCK_S: whole(1, MAX_SECONDS),
  GIVEKIT_MIN_FORM_MS: whole(0, 60_000),
  GIVEKIT_FORM_SESSION_TTL_S: whole(60, 7 * 24 * 3600),
  GIVEKIT_FORM_SESSION_TOKENIZATIONS: whole(1, MAX_COUNT),
  GIVEKIT_FORM_SESSION_CARDS: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_TOKENS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_DECLINES_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_CARDS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_DECLINE_RATIO: Ratio,
  GIVEKIT_DEFENCE_WINDOW_S: whole(1, MAX_SECONDS),
  GIVEKIT_DEFENCE_MIN_SAMPLE: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_CAMPAIGN_DECLINES_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_CAMPAIGN_CARDS_PER_MIN: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_BIN_CARDS: whole(2, MAX_COUNT),
  GIVEKIT_DEFENCE_BIN_WINDOW_S: whole(1, MAX_SECONDS),
  GIVEKIT_DEFENCE_QUIET_S: whole(1, MAX_SECONDS),
  GIVEKIT_FORM_SESSION_BULK: whole(1, MAX_COUNT),
  GIVEKIT_TOKEN_HOLD_S: whole(10, MAX_SECONDS),
  GIVEKIT_IDENTITY_DECLINES: whole(1, MAX_COUNT),
  GIVEKIT_DEFENCE_DONOR_CLIENTS: whole(2, MAX_COUNT),
  GIVEKIT_DEFENCE_AMOUNT_CLIENTS: whole(2, MAX_COUNT),
  GIVEKIT_CHALLENGE_WORK: whole(1, 100_000_000),
  GIVEKIT_CHALLENGE_MAX_LEVEL: whole(0, 10),
  GIVEKIT_CHALLENGE_TTL_S: whole(10, 3600),
  GIVEKIT_BREAKER_WINDOW_S: whole(10, MAX_SECONDS),
  GIVEKIT_BREAKER_CLIENT_DECLINES: whole(1, MAX_COUNT),
  GIVEKIT_BREAKER_CLIENT_TOKENS: whole(1, MAX_COUNT),
  GIVEKIT_BREAKER_CAMPAIGN_DECLINES: whole(1, MAX_COUNT),
  GIVEKIT_BREAKER_CAMPAIGN_TOKENS: whole(1, MAX_COUNT),
  GIVEKIT_BREAKER_SUCCESS_SHARE: Ratio,
  GIVEKIT_BREAKER_OPEN_S: whole(1, MAX_SECONDS),
  TURNSTILE_SITE_KEY: z.string(),
  TURNSTILE_SECRET: z.string(),
  TURNSTILE_VERIFY_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  TURNSTILE_SCRIPT_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  TURNSTILE_TIMEOUT_MS: whole(100, 60_000),
  GIVEKIT_PEERS_CACHE_S: whole(0, 24 * 3600),
  GIVEKIT_PROGRESS_CACHE_S: whole(0, 24 * 3600),
  GIVEKIT_RECONCILE_INTERVAL_S: whole(0, 24 * 3600),
  GIVEKIT_RECONCILE_SETTLE_S: whole(1, 7 * 24 * 3600),
  GIVEKIT_METRICS_TOKEN: z.string().check(
    z.refine(
      (value) => value === "" || value.length >= 16,
      "must be at least 16 characters when set (unset: no /metrics)",
    ),
    z.regex(/^[\x21-\x7e]*$/, "may hold only visible ASCII characters"),
  ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
    error: "must be one of fatal, error, warn, info, debug, trace, silent",
  }),
  GIVEKIT_STOP_DELAY_S: z
    .string()
    .check(z.regex(/^(\d{1,3})?$/, "must be a whole number of seconds (at most 999)")),
  GIVEKIT_STORE_START_WAIT_S: whole(0, 3600),
  GIVEKIT_ALLOW_DEMO_SETUP: z.enum(["true", "false"], 'must be "true" or "false"'),
  /** Read by parseWebhooks in loadConfig (JSON, with secrets: never echoed). */
  GIVEKIT_WEBHOOKS: z.string(),
  GIVEKIT_WEBHOOK_BACKOFF_MS: whole(10, 3_600_000),
});

const CampaignsFileSchema = z.strictObject({
  campaigns: z.array(CampaignSchema).check(z.minLength(1, "must list at least one campaign")),
  /** The campaigns with a screen for the room (proxy/campaigns.ts loadDisplays). */
  displays: z.optional(z.array(DisplaySettingsSchema)),
});

/** "https://Example.org:443/x" → "https://example.org"; null when it is not an http(s) origin. */
export function parseOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.username || url.password || url.search || url.hash) return null;
    if (url.pathname !== "/" && url.pathname !== "") return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** "campaigns.1.goal_amount" → "campaigns.1.goal_amount (campaign 41444/MEALS)", naming the campaign where it can. */
function describePath(raw: unknown, path: readonly PropertyKey[]): string {
  const dotted = path.map(String).join(".");
  const [list, index] = path;
  if (list !== "campaigns" || typeof index !== "number") return dotted;
  const entry = (raw as { campaigns?: unknown[] }).campaigns?.[index] as
    | { shortcode?: unknown; keyword?: unknown }
    | undefined;
  if (typeof entry?.shortcode !== "string" || typeof entry.keyword !== "string") return dotted;
  return `${dotted} (campaign ${entry.shortcode}/${entry.keyword})`;
}

/**
 * Reads and checks the campaigns file (GIVEKIT_CAMPAIGNS).
 *
 * @example
 * const campaigns = loadCampaigns("proxy/campaigns.demo.json"); // [{shortcode: "71777", keyword: "HOPE", …}, …]
 */
export function loadCampaigns(path: string): Campaign[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "not readable JSON";
    throw new ConfigError("GIVEKIT_CAMPAIGNS", `${path}: ${reason}`);
  }
  const parsed = CampaignsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? describePath(raw, issue.path) : "(file)";
    const message =
      issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : issue.message;
    throw new ConfigError("GIVEKIT_CAMPAIGNS", `${path}: ${where}: ${message}`);
  }
  const seen = new Set<string>();
  parsed.data.campaigns.forEach((campaign, index) => {
    const id = `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
    if (seen.has(id))
      throw new ConfigError("GIVEKIT_CAMPAIGNS", `${path}: campaigns.${index}: ${id} is listed twice`);
    seen.add(id);
    if (toCents(campaign.min_amount) > toCents(campaign.max_amount)) {
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: campaigns.${index}.min_amount: must not exceed max_amount`,
      );
    }
    if (Boolean(campaign.event_id) !== Boolean(campaign.event_type)) {
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: campaigns.${index}: event_id and event_type go together`,
      );
    }
  });
  (parsed.data.displays ?? []).forEach((display, index) => {
    if (!seen.has(`${display.shortcode}/${display.keyword.toUpperCase()}`))
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: displays.${index}: ${display.shortcode}/${display.keyword} is not one of the campaigns`,
      );
  });
  return parsed.data.campaigns;
}

/**
 * Parses the proxy's configuration from an environment (process.env in production).
 * Unset or empty variables take their defaults; the first bad value throws a ConfigError.
 *
 * @example
 * const config = loadConfig({ UPSTREAM_BASE_URL: "http://127.0.0.1:4010", UPSTREAM_PRIVATE_TOKEN: "…", UPSTREAM_PUBLIC_TOKEN: "…" });
 * config.port; // 8787
 */
/** Variables renamed, by their old name: the old one still works, with a line in the log. */
const RENAMED: Partial<Record<string, ConfigVariable>> = {
  GIVEKIT_JOURNAL_SECRET: "GIVEKIT_SIGNING_SECRET",
};
/** Variables that no longer do anything, and what took their place: said in the log when set. */
const RETIRED: Record<string, string> = {
  GIVEKIT_DEFENCE_THROTTLE_PER_MIN:
    "GIVEKIT_DEFENCE_THROTTLE_PER_MIN no longer does anything: defence mode challenges every card (givekit's own proof of work, GIVEKIT_CHALLENGE_WORK) instead of throttling a campaign to a fixed rate; remove it",
};

export function loadConfig(given: Record<string, string | undefined>): ProxyConfig {
  const env = { ...given };
  const deprecations: string[] = [];
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
  const e = parsed.data;
  const databaseUrl = e.DATABASE_URL === "" ? null : e.DATABASE_URL;
  if (databaseUrl && e.GIVEKIT_SIGNING_SECRET === "") {
    throw new ConfigError(
      "GIVEKIT_SIGNING_SECRET",
      "is required with DATABASE_URL: every proxy on the database must fingerprint bodies with the same key (at least 32 characters)",
    );
  }
  // A claim must outlive the longest upstream call it guards: connect, then wait for the answer.
  const longestCallS = Math.ceil((e.UPSTREAM_CONNECT_TIMEOUT_MS + e.UPSTREAM_TIMEOUT_MS) / 1000);
  const claimLeaseS =
    e.GIVEKIT_CLAIM_LEASE_S === "" ? longestCallS + LEASE_MARGIN_S : Number(e.GIVEKIT_CLAIM_LEASE_S);
  if (claimLeaseS <= longestCallS) {
    throw new ConfigError(
      "GIVEKIT_CLAIM_LEASE_S",
      `must be longer than UPSTREAM_CONNECT_TIMEOUT_MS + UPSTREAM_TIMEOUT_MS (${longestCallS} s) (got "${claimLeaseS}")`,
    );
  }
  const webhooks = parseWebhooks(e.GIVEKIT_WEBHOOKS);
  if (!webhooks.ok) throw new ConfigError("GIVEKIT_WEBHOOKS", webhooks.message);
  const campaignsPath = absolute(e.GIVEKIT_CAMPAIGNS);
  return {
    port: e.PORT,
    host: e.HOST,
    upstream: {
      baseUrl: e.UPSTREAM_BASE_URL.replace(/\/+$/, ""),
      privateToken: e.UPSTREAM_PRIVATE_TOKEN,
      publicToken: e.UPSTREAM_PUBLIC_TOKEN,
      connectTimeoutMs: e.UPSTREAM_CONNECT_TIMEOUT_MS,
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
    },
    allowedOrigins: e.ALLOWED_ORIGINS,
    dataDir: absolute(e.GIVEKIT_DATA_DIR),
    databaseUrl,
    dbPoolMax: e.GIVEKIT_DB_POOL_MAX,
    claimLeaseS,
    campaignsPath,
    campaigns: loadCampaigns(campaignsPath),
    trustProxy: trustProxy(e.GIVEKIT_TRUST_PROXY, e.HOST, deprecations),
    widgetDir: absolute(e.GIVEKIT_WIDGET_DIR),
    signingSecret: e.GIVEKIT_SIGNING_SECRET === "" ? null : e.GIVEKIT_SIGNING_SECRET,
    idempotencyRetentionH: e.GIVEKIT_IDEMPOTENCY_RETENTION_H,
    rateLimits: {
      paymentTokens: { burst: e.GIVEKIT_RATE_PAYMENT_TOKENS, perMin: e.GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN },
      donations: { burst: e.GIVEKIT_RATE_DONATIONS, perMin: e.GIVEKIT_RATE_DONATIONS_PER_MIN },
      subscriptions: { burst: e.GIVEKIT_RATE_SUBSCRIPTIONS, perMin: e.GIVEKIT_RATE_SUBSCRIPTIONS_PER_MIN },
      donationStatus: {
        burst: e.GIVEKIT_RATE_DONATION_STATUS,
        perMin: e.GIVEKIT_RATE_DONATION_STATUS_PER_MIN,
      },
      formSessions: { burst: e.GIVEKIT_RATE_FORM_SESSIONS, perMin: e.GIVEKIT_RATE_FORM_SESSIONS_PER_MIN },
      declineLimit: e.GIVEKIT_DECLINE_LIMIT,
      declineRatio: e.GIVEKIT_DECLINE_RATIO,
      declineWindowS: e.GIVEKIT_DECLINE_WINDOW_S,
      declineBlockS: e.GIVEKIT_DECLINE_BLOCK_S,
      inFlightTtlS: claimLeaseS,
    },
    defence: {
      minFormMs: e.GIVEKIT_MIN_FORM_MS,
      formSessionTtlS: e.GIVEKIT_FORM_SESSION_TTL_S,
      formSessionTokenizations: e.GIVEKIT_FORM_SESSION_TOKENIZATIONS,
      formSessionCards: e.GIVEKIT_FORM_SESSION_CARDS,
      tokensPerMin: e.GIVEKIT_DEFENCE_TOKENS_PER_MIN,
      declinesPerMin: e.GIVEKIT_DEFENCE_DECLINES_PER_MIN,
      cardsPerMin: e.GIVEKIT_DEFENCE_CARDS_PER_MIN,
      declineRatio: e.GIVEKIT_DEFENCE_DECLINE_RATIO,
      windowS: e.GIVEKIT_DEFENCE_WINDOW_S,
      minSample: e.GIVEKIT_DEFENCE_MIN_SAMPLE,
      campaignTokensPerMin: e.GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN,
      campaignDeclinesPerMin: e.GIVEKIT_DEFENCE_CAMPAIGN_DECLINES_PER_MIN,
      campaignCardsPerMin: e.GIVEKIT_DEFENCE_CAMPAIGN_CARDS_PER_MIN,
      binCards: e.GIVEKIT_DEFENCE_BIN_CARDS,
      binWindowS: e.GIVEKIT_DEFENCE_BIN_WINDOW_S,
      quietS: e.GIVEKIT_DEFENCE_QUIET_S,
      formSessionBulk: e.GIVEKIT_FORM_SESSION_BULK,
      tokenHoldS: e.GIVEKIT_TOKEN_HOLD_S,
      identityDeclines: e.GIVEKIT_IDENTITY_DECLINES,
      donorSpreadClients: e.GIVEKIT_DEFENCE_DONOR_CLIENTS,
      amountSpreadClients: e.GIVEKIT_DEFENCE_AMOUNT_CLIENTS,
      pow: {
        work: e.GIVEKIT_CHALLENGE_WORK,
        maxLevel: e.GIVEKIT_CHALLENGE_MAX_LEVEL,
        ttlS: e.GIVEKIT_CHALLENGE_TTL_S,
      },
      breaker: {
        windowS: e.GIVEKIT_BREAKER_WINDOW_S,
        clientDeclines: e.GIVEKIT_BREAKER_CLIENT_DECLINES,
        clientTokens: e.GIVEKIT_BREAKER_CLIENT_TOKENS,
        campaignDeclines: e.GIVEKIT_BREAKER_CAMPAIGN_DECLINES,
        campaignTokens: e.GIVEKIT_BREAKER_CAMPAIGN_TOKENS,
        successShare: e.GIVEKIT_BREAKER_SUCCESS_SHARE,
        openS: e.GIVEKIT_BREAKER_OPEN_S,
      },
      turnstile: turnstile(
        e.TURNSTILE_SITE_KEY,
        e.TURNSTILE_SECRET,
        e.TURNSTILE_VERIFY_URL,
        e.TURNSTILE_SCRIPT_URL,
        e.TURNSTILE_TIMEOUT_MS,
      ),
    },
    peersCacheS: e.GIVEKIT_PEERS_CACHE_S,
    progressCacheS: e.GIVEKIT_PROGRESS_CACHE_S,
    reconcileIntervalS: e.GIVEKIT_RECONCILE_INTERVAL_S,
    reconcileSettleS: e.GIVEKIT_RECONCILE_SETTLE_S,
    deprecations,
    metricsToken: e.GIVEKIT_METRICS_TOKEN === "" ? null : e.GIVEKIT_METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    // On loopback only a reverse proxy on this host sends traffic, and it probes no readiness.
    stopDelayMs:
      (e.GIVEKIT_STOP_DELAY_S === ""
        ? isLoopbackHost(e.HOST)
          ? 0
          : DEFAULT_STOP_DELAY_S
        : Number(e.GIVEKIT_STOP_DELAY_S)) * 1000,
    storeStartWaitS: e.GIVEKIT_STORE_START_WAIT_S,
    allowDemoSetup: e.GIVEKIT_ALLOW_DEMO_SETUP === "true",
    webhooks: webhooks.endpoints,
    webhookBackoffMs: e.GIVEKIT_WEBHOOK_BACKOFF_MS,
  };
}

/** The trust list: the loopback default when nothing is set and only this host can reach the proxy. */
function trustProxy(
  parsed: { addresses: string[]; explicit: boolean; hops: number | null },
  host: string,
  deprecations: string[],
): ProxyConfig["trustProxy"] {
  if (parsed.hops !== null)
    deprecations.push(
      "GIVEKIT_TRUST_PROXY=true (or 1, a hop count) is now GIVEKIT_TRUST_PROXY=loopback: a reverse proxy on this host; set that, or name your reverse proxies by address or range",
    );
  if (!parsed.explicit && isLoopbackHost(host)) return { addresses: ["loopback"], explicit: false };
  return { addresses: parsed.addresses, explicit: parsed.explicit };
}

/** Turnstile needs both keys or neither. */
function turnstile(siteKey: string, secret: string, verifyUrl: string, scriptUrl: string, timeoutMs: number) {
  if (!siteKey && !secret) return null;
  if (!siteKey) throw new ConfigError("TURNSTILE_SITE_KEY", "is required when TURNSTILE_SECRET is set");
  if (!secret) throw new ConfigError("TURNSTILE_SECRET", "is required when TURNSTILE_SITE_KEY is set");
  return { siteKey, secret, verifyUrl, scriptUrl, timeoutMs };
}

function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(process.cwd(), path);
}
