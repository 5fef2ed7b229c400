import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_CAMPAIGNS_PATH, loadConfig } from "../../proxy/config";
import { startProxy } from "../helpers/proxy";
import { startSandbox } from "../helpers/sandbox";

const REQUIRED = {
  UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
  UPSTREAM_PRIVATE_TOKEN: "private-token-for-config-tests",
  UPSTREAM_PUBLIC_TOKEN: "public-token-for-config-tests",
};

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ ...REQUIRED, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("loadConfig accepted the configuration");
}

function campaignsFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "givekit-config-"));
  const path = join(dir, "campaigns.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const CAMPAIGN = {
  shortcode: "71777",
  keyword: "HOPE",
  fee_rate: "0.03",
  max_amount: "100.00",
  currency: "USD",
  recurring_frequencies: ["monthly"],
  peer_fundraising: true,
  opt_in_lists: ["Hope Alerts"],
};

describe("loadConfig", () => {
  it("takes the documented defaults", () => {
    const config = loadConfig(REQUIRED);
    expect(config.port).toBe(8787);
    expect(config.host).toBe("127.0.0.1");
    expect(config.allowedOrigins).toEqual([]);
    expect(config.dataDir).toBe(join(process.cwd(), "data"));
    expect(config.campaignsPath).toBe(DEFAULT_CAMPAIGNS_PATH);
    expect(config.campaigns.map((c) => c.keyword)).toEqual(["HOPE", "MEALS"]);
    // Listening on loopback: only a reverse proxy on this host can reach it, so it is trusted.
    expect(config.trustProxy).toEqual({ addresses: ["loopback"], explicit: false });
    expect(config.signingSecret).toBeNull();
    expect(config.idempotencyRetentionH).toBe(24);
    // Buckets: a burst, then a steady refill a minute; a room of people gives at its own pace.
    expect(config.rateLimits).toEqual({
      paymentTokens: { burst: 10, perMin: 120 },
      donations: { burst: 10, perMin: 120 },
      subscriptions: { burst: 10, perMin: 120 },
      donationStatus: { burst: 120, perMin: 600 },
      formSessions: { burst: 60, perMin: 240 },
      declineLimit: 5,
      declineRatio: 0.5,
      declineWindowS: 600,
      declineBlockS: 3600,
      // The claim's lease: how long a donation counts as at the upstream if its proxy dies.
      inFlightTtlS: 23,
    });
  });

  it("reconciles every 60 s with a settle window of 900 s by default; names a bad value", () => {
    const config = loadConfig(REQUIRED);
    expect([config.reconcileIntervalS, config.reconcileSettleS]).toEqual([60, 900]);
    const set = loadConfig({
      ...REQUIRED,
      GIVEKIT_RECONCILE_INTERVAL_S: "0",
      GIVEKIT_RECONCILE_SETTLE_S: "30",
    });
    expect([set.reconcileIntervalS, set.reconcileSettleS]).toEqual([0, 30]);
    expect(errorOf({ GIVEKIT_RECONCILE_SETTLE_S: "0" }).variable).toBe("GIVEKIT_RECONCILE_SETTLE_S");
    expect(errorOf({ GIVEKIT_RECONCILE_INTERVAL_S: "often" }).variable).toBe("GIVEKIT_RECONCILE_INTERVAL_S");
  });

  it("retries a webhook event for 3 days and looks at the upstream every 10 s by default; names a bad value", () => {
    const config = loadConfig(REQUIRED);
    expect([config.webhookGiveUpS, config.upstreamWatchS]).toEqual([259_200, 10]);
    const set = loadConfig({ ...REQUIRED, GIVEKIT_WEBHOOK_GIVE_UP_S: "2", GIVEKIT_UPSTREAM_WATCH_S: "30" });
    expect([set.webhookGiveUpS, set.upstreamWatchS]).toEqual([2, 30]);
    expect(errorOf({ GIVEKIT_WEBHOOK_GIVE_UP_S: "0" }).variable).toBe("GIVEKIT_WEBHOOK_GIVE_UP_S");
    // Past 30 s the upstream's alert would come well after its minute.
    expect(errorOf({ GIVEKIT_UPSTREAM_WATCH_S: "31" }).variable).toBe("GIVEKIT_UPSTREAM_WATCH_S");
    expect(errorOf({ GIVEKIT_UPSTREAM_WATCH_S: "1" }).variable).toBe("GIVEKIT_UPSTREAM_WATCH_S");
  });

  it("reads every variable it documents", () => {
    const config = loadConfig({
      ...REQUIRED,
      PORT: "9000",
      HOST: "0.0.0.0",
      UPSTREAM_BASE_URL: "https://api.example.org/",
      UPSTREAM_CONNECT_TIMEOUT_MS: "500",
      UPSTREAM_TIMEOUT_MS: "2500",
      ALLOWED_ORIGINS: "https://Shelter.example, http://localhost:8080/",
      GIVEKIT_TRUST_PROXY: "10.0.0.0/8, loopback",
      GIVEKIT_SIGNING_SECRET: "x".repeat(40),
      GIVEKIT_IDEMPOTENCY_RETENTION_H: "48",
      GIVEKIT_RATE_DONATIONS: "3",
      GIVEKIT_RATE_DONATIONS_PER_MIN: "6",
      GIVEKIT_RATE_DONATION_STATUS: "30",
      GIVEKIT_DECLINE_RATIO: "0.8",
      GIVEKIT_DECLINE_BLOCK_S: "60",
      GIVEKIT_PEERS_CACHE_S: "0",
      LOG_LEVEL: "warn",
    });
    expect(config.port).toBe(9000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.upstream).toMatchObject({
      baseUrl: "https://api.example.org",
      connectTimeoutMs: 500,
      timeoutMs: 2500,
    });
    expect(config.allowedOrigins).toEqual(["https://shelter.example", "http://localhost:8080"]);
    expect(config.trustProxy).toEqual({ addresses: ["10.0.0.0/8", "loopback"], explicit: true });
    expect(config.signingSecret).toBe("x".repeat(40));
    expect(config.idempotencyRetentionH).toBe(48);
    expect(config.rateLimits.donations).toEqual({ burst: 3, perMin: 6 });
    expect(config.rateLimits.donationStatus).toEqual({ burst: 30, perMin: 600 });
    expect(config.rateLimits.declineRatio).toBe(0.8);
    expect(config.rateLimits.declineBlockS).toBe(60);
    expect(config.peersCacheS).toBe(0);
    expect(config.logLevel).toBe("warn");
  });

  it("treats an empty variable as unset", () => {
    expect(loadConfig({ ...REQUIRED, PORT: "", GIVEKIT_TRUST_PROXY: " " }).port).toBe(8787);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["UPSTREAM_BASE_URL", "ftp://example.org"],
    ["UPSTREAM_BASE_URL", "http://user:pw@example.org"],
    ["UPSTREAM_TIMEOUT_MS", "0"],
    ["ALLOWED_ORIGINS", "https://ok.example,not an origin"],
    ["ALLOWED_ORIGINS", "https://shelter.example/donate"],
    ["GIVEKIT_TRUST_PROXY", "yes"],
    ["GIVEKIT_IDEMPOTENCY_RETENTION_H", "12"],
    ["GIVEKIT_RATE_PAYMENT_TOKENS", "-1"],
    ["GIVEKIT_RATE_DONATION_STATUS", "0"],
    ["GIVEKIT_RATE_DONATION_STATUS", "many"],
    ["GIVEKIT_DECLINE_LIMIT", "0"],
    ["LOG_LEVEL", "loud"],
    ["GIVEKIT_SIGNING_SECRET", "short"],
  ])("a bad %s (%j) throws an error naming it", (variable, value) => {
    const error = errorOf({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}: `)).toBe(true);
  });

  it.each([
    "https://api.example.org/api/v2",
    "https://api.example.org/api/v2/",
    "http://127.0.0.1:4010/API/V2",
  ])(
    "a base URL ending in /api/v2 (%j) stops the proxy naming UPSTREAM_BASE_URL and the fix, not the token",
    (value) => {
      const error = errorOf({ UPSTREAM_BASE_URL: value });
      expect(error.variable).toBe("UPSTREAM_BASE_URL");
      expect(error.message).toMatch(/without \/api\/v2 .*set it to scheme:\/\/host\[:port\]/);
    },
  );

  it.each(["UPSTREAM_BASE_URL", "UPSTREAM_PRIVATE_TOKEN", "UPSTREAM_PUBLIC_TOKEN"])(
    "%s is required",
    (variable) => {
      const { [variable as keyof typeof REQUIRED]: _left, ...rest } = REQUIRED;
      let thrown: unknown;
      try {
        loadConfig(rest);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).variable).toBe(variable);
    },
  );

  it("never echoes a secret in its message", () => {
    const secret = 'has"a-quote-secret-value';
    const error = errorOf({ UPSTREAM_PRIVATE_TOKEN: secret });
    expect(error.variable).toBe("UPSTREAM_PRIVATE_TOKEN");
    expect(error.message).not.toContain(secret);
    const short = errorOf({ GIVEKIT_SIGNING_SECRET: "tiny-secret" });
    expect(short.message).not.toContain("tiny-secret");
  });

  describe("GIVEKIT_CAMPAIGNS", () => {
    it("reads a campaigns file, defaulting min_amount to 5.00", () => {
      const config = loadConfig({ ...REQUIRED, GIVEKIT_CAMPAIGNS: campaignsFile({ campaigns: [CAMPAIGN] }) });
      expect(config.campaigns).toEqual([{ ...CAMPAIGN, min_amount: "5.00" }]);
    });

    it.each([
      ["a missing file", "/nonexistent/campaigns.json", "no such file"],
      ["a file that is not JSON", "{nope", "not JSON ("],
      ["no campaigns", { campaigns: [] }, "at least one"],
      ["a bad fee rate", { campaigns: [{ ...CAMPAIGN, fee_rate: "3%" }] }, "campaigns.0.fee_rate"],
      ["an unknown field", { campaigns: [{ ...CAMPAIGN, colour: "red" }] }, "colour"],
      ["min above max", { campaigns: [{ ...CAMPAIGN, min_amount: "500.00" }] }, "min_amount"],
      [
        "a campaign listed twice",
        { campaigns: [CAMPAIGN, { ...CAMPAIGN, keyword: "hope" }] },
        "listed twice",
      ],
      ["an event_id without event_type", { campaigns: [{ ...CAMPAIGN, event_id: "e1" }] }, "event_type"],
      [
        "a malformed goal_amount",
        { campaigns: [CAMPAIGN, { ...CAMPAIGN, keyword: "MEALS", goal_amount: "25k" }] },
        `campaigns.1.goal_amount (campaign ${CAMPAIGN.shortcode}/MEALS)`,
      ],
      ["a goal_amount of zero", { campaigns: [{ ...CAMPAIGN, goal_amount: "0.00" }] }, "goal_amount"],
    ])("refuses %s, naming the variable and the problem", (_name, content, fragment) => {
      const path = typeof content === "string" && content.startsWith("/") ? content : campaignsFile(content);
      const error = errorOf({ GIVEKIT_CAMPAIGNS: path });
      expect(error.variable).toBe("GIVEKIT_CAMPAIGNS");
      expect(error.message).toContain(fragment);
    });
  });
});

describe("the store settings", () => {
  const secret = "s".repeat(40);

  it("default to SQLite, a pool of 10 and a claim lease of the longest upstream call plus 5 s", () => {
    const config = loadConfig(REQUIRED);
    expect(config.databaseUrl).toBeNull();
    expect(config.dbPoolMax).toBe(10);
    expect(config.claimLeaseS).toBe(3 + 15 + 5);
    expect(
      loadConfig({ ...REQUIRED, UPSTREAM_TIMEOUT_MS: "1500", UPSTREAM_CONNECT_TIMEOUT_MS: "500" })
        .claimLeaseS,
    ).toBe(7);
  });

  it("take a postgres:// or postgresql:// DATABASE_URL with the signing secret", () => {
    for (const url of ["postgres://u:p@db.internal:5432/givekit", "postgresql://db/givekit"]) {
      expect(loadConfig({ ...REQUIRED, DATABASE_URL: url, GIVEKIT_SIGNING_SECRET: secret }).databaseUrl).toBe(
        url,
      );
    }
  });

  it("still take GIVEKIT_JOURNAL_SECRET, the signing secret's old name, with a line saying so; the new name wins", async () => {
    const config = loadConfig({
      ...REQUIRED,
      DATABASE_URL: "postgres://db/givekit",
      GIVEKIT_JOURNAL_SECRET: secret,
    });
    expect(config.signingSecret).toBe(secret);
    const line =
      "GIVEKIT_JOURNAL_SECRET is now GIVEKIT_SIGNING_SECRET; the old name still works, and will not always";
    expect(config.deprecations).toEqual([line]);
    const both = loadConfig({
      ...REQUIRED,
      GIVEKIT_JOURNAL_SECRET: secret,
      GIVEKIT_SIGNING_SECRET: "n".repeat(40),
    });
    expect(both.signingSecret).toBe("n".repeat(40));
    expect(loadConfig(REQUIRED).deprecations).toEqual([]);
    // The proxy says it in its log at start, as a warning.
    const sandbox = await startSandbox();
    const proxy = await startProxy({ upstreamUrl: sandbox.url, env: { GIVEKIT_JOURNAL_SECRET: secret } });
    try {
      const warned = proxy.logs.map((entry) => JSON.parse(entry)).find((entry) => entry.msg === line);
      expect(warned).toMatchObject({ level: 40, deprecated: true });
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });

  it.each([["mysql://u:hunter2@db/givekit"], ["postgres//u:hunter2@db"], ["postgres:///givekit"]])(
    "refuse DATABASE_URL %j without echoing it",
    (url) => {
      const error = errorOf({ DATABASE_URL: url, GIVEKIT_SIGNING_SECRET: secret });
      expect(error.variable).toBe("DATABASE_URL");
      expect(error.message).not.toContain("hunter2");
      expect(error.message).not.toContain(url);
    },
  );

  it("require GIVEKIT_SIGNING_SECRET with DATABASE_URL: every proxy must fingerprint alike", () => {
    const error = errorOf({ DATABASE_URL: "postgres://db/givekit" });
    expect(error.variable).toBe("GIVEKIT_SIGNING_SECRET");
    expect(error.message).toContain("required with DATABASE_URL");
  });

  it("refuse a claim lease no longer than the longest upstream call", () => {
    const error = errorOf({ GIVEKIT_CLAIM_LEASE_S: "18" });
    expect(error.variable).toBe("GIVEKIT_CLAIM_LEASE_S");
    expect(error.message).toContain("longer than UPSTREAM_CONNECT_TIMEOUT_MS + UPSTREAM_TIMEOUT_MS (18 s)");
    expect(loadConfig({ ...REQUIRED, GIVEKIT_CLAIM_LEASE_S: "19" }).claimLeaseS).toBe(19);
    expect(errorOf({ GIVEKIT_CLAIM_LEASE_S: "soon" }).variable).toBe("GIVEKIT_CLAIM_LEASE_S");
    expect(errorOf({ GIVEKIT_DB_POOL_MAX: "0" }).variable).toBe("GIVEKIT_DB_POOL_MAX");
  });
});
