// The per-campaign and BIN signals, through the proxy's API, on both stores: what trips defence
// mode, where (one campaign or all), what `givekit doctor` shows while the proxy runs, and that no
// card number reaches a table, a log line or the command's output.
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../../proxy/cli/main";
import { DB_FILE } from "../../../proxy/store/sqlite/data-dir";
import { openSqlite } from "../../../sqlite/open";
import { sql } from "../../helpers/postgres";
import { startProxy, type ProxyHandle } from "../../helpers/proxy";
import { DEMO, startSandbox, type SandboxHandle } from "../../helpers/sandbox";
import { CVV, EXPIRY, client, logLines, postCard, withCheckDigit } from "../support";

/** Cards a generator counts through: one BIN, account numbers one after another. */
const sequential = (count: number) =>
  Array.from({ length: count }, (_, i) => withCheckDigit(`411111000000${String(120 + i).padStart(3, "0")}`));
/** Cards of as many people: other BINs, other last fours. */
const UNRELATED = [
  withCheckDigit("424242424242424"),
  withCheckDigit("555555555555444"),
  withCheckDigit("400005566555555"),
  withCheckDigit("522222000000000"),
  withCheckDigit("437512345678901"),
  withCheckDigit("601111111111111"),
  withCheckDigit("476173000000001"),
  withCheckDigit("411111987654321"),
];

const CAMPAIGNS = {
  hope: { shortcode: "71777", keyword: "HOPE" },
  meals: { shortcode: "41444", keyword: "MEALS" },
};

/**
 * Every signal high but the ones a test lowers, the circuit breakers' budgets too (their unanswered
 * tokenizations would ask for Turnstile first; a BIN's would hold a run of one BIN); Turnstile configured (nothing here is verified).
 */
const QUIET_ELSEWHERE = {
  GIVEKIT_TRUST_PROXY: "1",
  GIVEKIT_BREAKER_CLIENT_TOKENS: "1000",
  GIVEKIT_BREAKER_CAMPAIGN_TOKENS: "1000",
  GIVEKIT_BREAKER_BIN_DECLINES: "1000",
  GIVEKIT_RATE_PAYMENT_TOKENS: "1000",
  GIVEKIT_DEFENCE_TOKENS_PER_MIN: "1000",
  GIVEKIT_DEFENCE_CARDS_PER_MIN: "1000",
  GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN: "1000",
  GIVEKIT_DEFENCE_CAMPAIGN_CARDS_PER_MIN: "1000",
  GIVEKIT_DEFENCE_BIN_CARDS: "1000",
  TURNSTILE_SITE_KEY: "1x-site-key",
  TURNSTILE_SECRET: "1x-secret",
  TURNSTILE_VERIFY_URL: "http://127.0.0.1:9/siteverify",
  TURNSTILE_SCRIPT_URL: "http://127.0.0.1:9/turnstile/api.js",
};

let running: { sandbox: SandboxHandle; proxy: ProxyHandle } | null = null;
afterEach(async () => {
  if (!running) return;
  await running.proxy.close();
  await running.sandbox.close();
  running = null;
});

async function stack(store: "sqlite" | "postgres", env: Record<string, string>) {
  const sandbox = await startSandbox();
  const proxy = await startProxy({ upstreamUrl: sandbox.url, store, env: { ...QUIET_ELSEWHERE, ...env } });
  running = { sandbox, proxy };
  const api = client(proxy.url);
  let address = 0;
  /** A tokenization from a new address, as the card frame of `campaign` sends it. */
  const tokenizeFor = (card: string, campaign?: { shortcode: string; keyword: string }) =>
    postCard(
      api,
      { card_number: card, cvv: CVV, expiration_date: EXPIRY, website: "", ...campaign },
      { headers: { "X-Forwarded-For": `10.9.0.${++address}` } },
    );
  return { sandbox, proxy, tokenizeFor };
}

/** `givekit doctor` beside the running proxy, on its store. */
async function doctor(sandbox: SandboxHandle, proxy: ProxyHandle, secret?: string): Promise<string> {
  let out = "";
  await main(
    ["doctor"],
    {
      UPSTREAM_BASE_URL: sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: proxy.dataDir,
      ...(proxy.databaseUrl ? { DATABASE_URL: proxy.databaseUrl, GIVEKIT_SIGNING_SECRET: secret } : {}),
    },
    { write: (text: string) => (out += text) },
    { write: (text: string) => (out += text) },
  );
  return out;
}

/**
 * doctor's report once it shows defence mode on: the proxy writes defence mode lazily (in its
 * store's next batch, within 250 ms on a quiet machine), so a loaded one is given up to 10 s.
 */
async function doctorOnceWritten(sandbox: SandboxHandle, proxy: ProxyHandle): Promise<string> {
  return vi.waitFor(
    async () => {
      const report = await doctor(sandbox, proxy, DOCTOR_SECRET);
      if (!/^✓ defence mode: ON /m.test(report)) throw new Error(`defence mode not written yet:\n${report}`);
      return report;
    },
    { timeout: 10_000, interval: 200 },
  );
}

/** Every row of every table of the proxy's store, as text. */
async function tables(proxy: ProxyHandle): Promise<string> {
  if (proxy.databaseUrl) {
    const url = proxy.databaseUrl;
    const names = await sql<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const dumps = [];
    for (const { table_name } of names)
      dumps.push(JSON.stringify(await sql(url, `SELECT * FROM "${table_name}"`)));
    return dumps.join("\n");
  }
  const db = openSqlite(join(proxy.dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    return names.map(({ name }) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())).join("\n");
  } finally {
    db.close();
  }
}

/** The signing secret the helper gave a PostgreSQL proxy is not exposed: the doctor needs one of 32+. */
const DOCTOR_SECRET = "d".repeat(32);

describe.each(["sqlite", "postgres"] as const)("defence signals on %s", (store) => {
  it("a campaign's own signal puts that campaign in defence mode, not the other; doctor shows it", async () => {
    const { sandbox, proxy, tokenizeFor } = await stack(store, {
      GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN: "3",
    });
    for (const card of UNRELATED.slice(0, 3))
      expect((await tokenizeFor(card, CAMPAIGNS.hope)).status).toBe(201);

    const asked = await tokenizeFor(UNRELATED[3]!, CAMPAIGNS.hope);
    expect(asked.status).toBe(403);
    expect(asked.json).toMatchObject({
      code: "challenge_required",
      challenge: {
        provider: "turnstile",
        site_key: "1x-site-key",
        script_url: "http://127.0.0.1:9/turnstile/api.js",
      },
    });
    expect((await tokenizeFor(UNRELATED[4]!, CAMPAIGNS.meals)).status).toBe(201);
    // A tokenization naming no campaign is challenged like the rest while any campaign is in defence mode.
    expect((await tokenizeFor(UNRELATED[5]!)).json.code).toBe("challenge_required");

    const on = logLines(proxy).filter((line) => line.event === "defence_mode_on");
    expect(on).toEqual([
      expect.objectContaining({ scope: "71777/HOPE", signal: "tokens_per_min", value: 3 }),
    ]);
    const report = await doctorOnceWritten(sandbox, proxy);
    expect(report).toMatch(
      /^✓ defence mode: ON for campaign 71777\/HOPE since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(signal tokens_per_min: 3\), ends /m,
    );
    const line = report.split("\n").find((text) => text.startsWith("✓ defence mode:"));
    expect(line).not.toContain("all campaigns");
    expect(line).not.toContain("41444/MEALS");
  });

  it("a run of sequential cards of one BIN trips the BIN signal for all campaigns", async () => {
    const { sandbox, proxy, tokenizeFor } = await stack(store, { GIVEKIT_DEFENCE_BIN_CARDS: "5" });
    const cards = sequential(6);
    for (const card of cards.slice(0, 5)) expect((await tokenizeFor(card, CAMPAIGNS.hope)).status).toBe(201);
    const sixth = await tokenizeFor(cards[5]!, CAMPAIGNS.meals);
    expect(sixth.json.code).toBe("challenge_required");

    const on = logLines(proxy).filter((line) => line.event === "defence_mode_on");
    expect(on).toEqual([
      expect.objectContaining({ scope: "all", signal: "bin_run", value: 5, bin: "411111" }),
    ]);
    const report = await doctorOnceWritten(sandbox, proxy);
    expect(report).toMatch(/^✓ defence mode: ON for all campaigns since .+\(signal bin_run: 5\)/m);

    // No card number anywhere: not in a table (signals included), a log line or the doctor's output.
    const everything = [await tables(proxy), proxy.logs.join("\n"), report].join("\n");
    for (const card of cards) expect(everything).not.toContain(card);
  });

  it("the same number of unrelated cards trips nothing", async () => {
    const { sandbox, proxy, tokenizeFor } = await stack(store, { GIVEKIT_DEFENCE_BIN_CARDS: "5" });
    for (const card of UNRELATED) expect((await tokenizeFor(card, CAMPAIGNS.hope)).status).toBe(201);
    expect(logLines(proxy).filter((line) => line.event === "defence_mode_on")).toEqual([]);
    expect(await doctor(sandbox, proxy, DOCTOR_SECRET)).toMatch(/^✓ defence mode: off \(never entered\)$/m);
    const everything = [await tables(proxy), proxy.logs.join("\n")].join("\n");
    for (const card of UNRELATED) expect(everything).not.toContain(card);
  });

  it("a campaign not served here is a 404, and one named by half is a 400; nothing is tokenized", async () => {
    const { sandbox, tokenizeFor } = await stack(store, {});
    const unknown = await tokenizeFor(UNRELATED[0]!, { shortcode: "71777", keyword: "NOSUCH" });
    expect([unknown.status, unknown.json.code]).toEqual([404, "campaign_not_served"]);
    const half = await tokenizeFor(UNRELATED[0]!, { keyword: "HOPE" } as never);
    expect([half.status, half.json.code]).toEqual([400, "validation_failed"]);
    const bad = await tokenizeFor(UNRELATED[0]!, { shortcode: "x", keyword: "HOPE" });
    expect([bad.status, bad.json.code]).toEqual([400, "validation_failed"]);
    const tokenCalls = (await sandbox.requests()).filter((r) => r.path.endsWith("/create_payment_token"));
    expect(tokenCalls).toEqual([]);
  });
});
