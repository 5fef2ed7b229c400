/**
 * The card-testing defence (proxy/GUIDE.md, "Limits and defences"): the card frame's form
 * sessions, the signals that start defence mode, what it asks of a card (givekit's proof of work,
 * or Cloudflare Turnstile where configured).
 */
import * as z from "zod/mini";
import { ConfigError, MAX_COUNT, MAX_SECONDS, Ratio, whole } from "./values";

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
  /** Declines, and cards in flight, of one BIN (the first six digits) in the window, over every client and campaign: a tester's run. */
  binDeclines: number;
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

/** Each variable's default ("" = optional without one). */
export const DEFENCE_DEFAULTS = {
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
  GIVEKIT_BREAKER_BIN_DECLINES: "3",
  GIVEKIT_BREAKER_SUCCESS_SHARE: "0.1",
  GIVEKIT_BREAKER_OPEN_S: "30",
  TURNSTILE_SITE_KEY: "",
  TURNSTILE_SECRET: "",
  TURNSTILE_VERIFY_URL: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  TURNSTILE_SCRIPT_URL: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
  TURNSTILE_TIMEOUT_MS: "3000",
} as const;

/** Never echoed in an error message. */
export const DEFENCE_SECRETS = ["TURNSTILE_SECRET"] as const;

export const DefenceVariablesSchema = z.object({
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
  GIVEKIT_BREAKER_BIN_DECLINES: whole(1, MAX_COUNT),
  GIVEKIT_BREAKER_SUCCESS_SHARE: Ratio,
  GIVEKIT_BREAKER_OPEN_S: whole(1, MAX_SECONDS),
  TURNSTILE_SITE_KEY: z.string(),
  TURNSTILE_SECRET: z.string(),
  TURNSTILE_VERIFY_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  TURNSTILE_SCRIPT_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  TURNSTILE_TIMEOUT_MS: whole(100, 60_000),
});
export type DefenceVariables = z.output<typeof DefenceVariablesSchema>;

export function defenceConfig(e: DefenceVariables): { defence: DefenceConfig } {
  return {
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
        binDeclines: e.GIVEKIT_BREAKER_BIN_DECLINES,
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
  };
}

/** Turnstile needs both keys or neither. */
function turnstile(siteKey: string, secret: string, verifyUrl: string, scriptUrl: string, timeoutMs: number) {
  if (!siteKey && !secret) return null;
  if (!siteKey) throw new ConfigError("TURNSTILE_SITE_KEY", "is required when TURNSTILE_SECRET is set");
  if (!secret) throw new ConfigError("TURNSTILE_SECRET", "is required when TURNSTILE_SITE_KEY is set");
  return { siteKey, secret, verifyUrl, scriptUrl, timeoutMs };
}
