// The card-testing settings: documented defaults, and a bad value named by its variable.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config";

const REQUIRED = {
  UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
  UPSTREAM_PRIVATE_TOKEN: "private-token-for-config-tests",
  UPSTREAM_PUBLIC_TOKEN: "public-token-for-config-tests",
};

function variableOf(env: Record<string, string>): string {
  try {
    loadConfig({ ...REQUIRED, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  throw new Error("loadConfig accepted the configuration");
}

describe("the card-testing settings", () => {
  it("default to the filters and thresholds proxy/GUIDE.md gives, with no challenge", () => {
    expect(loadConfig(REQUIRED).defence).toEqual({
      minFormMs: 1500,
      formSessionTtlS: 7200,
      formSessionTokenizations: 5,
      formSessionCards: 3,
      tokensPerMin: 60,
      declinesPerMin: 10,
      cardsPerMin: 40,
      declineRatio: 0.5,
      windowS: 600,
      minSample: 20,
      campaignTokensPerMin: 30,
      campaignDeclinesPerMin: 6,
      campaignCardsPerMin: 20,
      binCards: 6,
      binWindowS: 600,
      quietS: 1800,
      formSessionBulk: 20,
      tokenHoldS: 300,
      identityDeclines: 3,
      donorSpreadClients: 3,
      amountSpreadClients: 5,
      pow: { work: 5000, maxLevel: 3, ttlS: 300 },
      breaker: {
        windowS: 600,
        clientDeclines: 6,
        clientTokens: 8,
        campaignDeclines: 15,
        campaignTokens: 20,
        binDeclines: 3,
        successShare: 0.1,
        openS: 30,
      },
      turnstile: null,
    });
  });

  it("say in the log that the old throttle no longer does anything, and what took its place", () => {
    const config = loadConfig({ ...REQUIRED, GIVEKIT_DEFENCE_THROTTLE_PER_MIN: "5" });
    expect(config.deprecations).toEqual([
      expect.stringMatching(/THROTTLE_PER_MIN no longer does anything: defence mode challenges/),
    ]);
    expect(loadConfig(REQUIRED).deprecations).toEqual([]);
  });

  it("take Turnstile with both keys and a verify URL", () => {
    const config = loadConfig({
      ...REQUIRED,
      TURNSTILE_SITE_KEY: "1x-site",
      TURNSTILE_SECRET: "1x-secret",
      TURNSTILE_VERIFY_URL: "http://127.0.0.1:9/siteverify",
    });
    expect(config.defence.turnstile).toEqual({
      siteKey: "1x-site",
      secret: "1x-secret",
      verifyUrl: "http://127.0.0.1:9/siteverify",
      scriptUrl: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
      timeoutMs: 3000,
    });
  });

  it.each([
    [{ TURNSTILE_SECRET: "1x-secret" }, "TURNSTILE_SITE_KEY"],
    [{ TURNSTILE_SITE_KEY: "1x-site" }, "TURNSTILE_SECRET"],
    [{ TURNSTILE_VERIFY_URL: "ftp://example.org" }, "TURNSTILE_VERIFY_URL"],
    [{ TURNSTILE_SCRIPT_URL: "javascript:alert(1)" }, "TURNSTILE_SCRIPT_URL"],
    [{ GIVEKIT_DEFENCE_BIN_CARDS: "1" }, "GIVEKIT_DEFENCE_BIN_CARDS"],
    [{ GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN: "0" }, "GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN"],
    [{ GIVEKIT_DEFENCE_DECLINE_RATIO: "1.5" }, "GIVEKIT_DEFENCE_DECLINE_RATIO"],
    [{ GIVEKIT_MIN_FORM_MS: "-1" }, "GIVEKIT_MIN_FORM_MS"],
    [{ GIVEKIT_DEFENCE_QUIET_S: "0" }, "GIVEKIT_DEFENCE_QUIET_S"],
    [{ GIVEKIT_BREAKER_CLIENT_DECLINES: "0" }, "GIVEKIT_BREAKER_CLIENT_DECLINES"],
    [{ GIVEKIT_BREAKER_SUCCESS_SHARE: "2" }, "GIVEKIT_BREAKER_SUCCESS_SHARE"],
    [{ GIVEKIT_BREAKER_OPEN_S: "soon" }, "GIVEKIT_BREAKER_OPEN_S"],
  ])("%o → a ConfigError naming %s", (env, variable) => {
    expect(variableOf(env)).toBe(variable);
  });
});
