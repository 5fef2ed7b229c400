// GET /v1/campaigns/{shortcode}/{keyword}/progress: raised and donors from the sandbox's own report.
import { afterEach, describe, expect, it } from "vitest";
import { fromCents, toCents } from "../../contract/money";
import { createProgressCache, RECOUNT_MIN_MS, summarize } from "../../proxy/progress";
import type { UpstreamClient } from "../../proxy/upstream/client";
import { startProxy, type ProxyHandle } from "../helpers/proxy";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { startRelay, type Relay } from "./relay";
import {
  CARDS,
  client,
  collected,
  donate,
  donationBody,
  logLines,
  tokenize,
  upstreamCalls,
  useStack,
} from "./support";

const REPORT_PATH = "/api/v2/reports/transactions.json";
const progressOf = (shortcode: string, keyword: string) => `/v1/campaigns/${shortcode}/${keyword}/progress`;

describe("campaign progress against the sandbox", () => {
  const ctx = useStack();

  it("raised is the sum of the keyword's collected rows in the sandbox's report, covered fees included", async () => {
    const gifts: [string, Record<string, unknown>][] = [
      [CARDS.ok, { amount: "25.00", cover_fee: true }],
      [
        CARDS.ok,
        { amount: "10.00", donor: { first_name: "Ben", last_name: "Okafor", email: "ben@example.org" } },
      ],
      // The same donor again, written differently: still one donor.
      [
        CARDS.ok,
        { amount: "10.00", donor: { first_name: "Ana", last_name: "Doe", email: "ANA@example.org" } },
      ],
      [CARDS.declined, { amount: "40.00" }],
      [CARDS.ok, { shortcode: "41444", keyword: "MEALS", amount: "7.00" }],
    ];
    for (const [card, fields] of gifts) {
      await donate(ctx.api, donationBody(await tokenize(ctx.api, card), fields));
    }

    const reply = await ctx.api.get(progressOf("71777", "hope"));
    expect(reply.status).toBe(200);
    const rows = await collected(ctx.sandbox, "HOPE");
    const sum = fromCents(rows.reduce((cents, row) => cents + toCents(row.amount), 0));
    expect(sum).toBe("45.75");
    expect(reply.json).toEqual({
      raised: sum,
      goal: "25000.00",
      donors: 2,
      currency: "USD",
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(reply.headers.get("cache-control")).toBe("public, max-age=60");

    const meals = await ctx.api.get(progressOf("41444", "MEALS"));
    expect(meals.json).toMatchObject({ raised: "7.00", goal: null, donors: 1 });
  });

  it("50 concurrent requests share one upstream report, and later ones the cached value", async () => {
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => ctx.api.get(progressOf("71777", "HOPE"))),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array(50).fill(200));
    expect(await upstreamCalls(ctx.sandbox, REPORT_PATH)).toBe(1);
    await ctx.api.get(progressOf("71777", "HOPE"));
    expect(await upstreamCalls(ctx.sandbox, REPORT_PATH)).toBe(1);
  });

  it("a gift charged through this proxy is counted at once, though the value was cached a moment ago", async () => {
    const before = await ctx.api.get(progressOf("71777", "HOPE"));
    await donate(ctx.api, donationBody(await tokenize(ctx.api, CARDS.ok), { amount: "12.00" }));
    // Well inside GIVEKIT_PROGRESS_CACHE_S: without the gift, the cached value would be served.
    const after = await ctx.api.get(progressOf("71777", "HOPE"));
    const rows = await collected(ctx.sandbox, "HOPE");
    expect(toCents(after.json.raised as string) - toCents(before.json.raised as string)).toBe(1200);
    expect(after.json.raised).toBe(fromCents(rows.reduce((cents, row) => cents + toCents(row.amount), 0)));
  });

  it("a campaign this proxy does not serve → 404 campaign_not_served, nothing asked upstream", async () => {
    const reply = await ctx.api.get(progressOf("71777", "NOPE"));
    expect(reply.status).toBe(404);
    expect(reply.json.code).toBe("campaign_not_served");
    expect(await upstreamCalls(ctx.sandbox, REPORT_PATH)).toBe(0);
  });
});

describe("campaign progress when the upstream fails", () => {
  let sandbox: SandboxHandle | undefined;
  let relay: Relay | undefined;
  let proxy: ProxyHandle | undefined;
  afterEach(async () => {
    await proxy?.close();
    await relay?.close().catch(() => undefined);
    await sandbox?.close();
  });

  it("serves the last good value with its age while the report fails; 503 where there never was one", async () => {
    sandbox = await startSandbox();
    relay = await startRelay(sandbox.url);
    proxy = await startProxy({
      upstreamUrl: relay.url,
      env: { GIVEKIT_PROGRESS_CACHE_S: "1", UPSTREAM_CONNECT_TIMEOUT_MS: "500", UPSTREAM_TIMEOUT_MS: "1000" },
    });
    const api = client(proxy.url);
    await donate(api, donationBody(await tokenize(api), { amount: "20.00" }));
    const fresh = await api.get(progressOf("71777", "HOPE"));
    expect(fresh.json).toMatchObject({ raised: "20.00", donors: 1 });

    await relay.close();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = Date.now();
      const stale = await api.get(progressOf("71777", "HOPE"));
      expect(stale.status).toBe(200);
      expect(stale.json).toEqual(fresh.json);
      expect(Date.now() - started).toBeLessThan(500);
    }
    await expect
      .poll(() => logLines(proxy!).some((line) => /last good value/.test(String(line.msg))))
      .toBe(true);

    const never = await api.get(progressOf("41444", "MEALS"));
    expect(never.status).toBe(503);
    expect(never.json.code).toBe("upstream_unavailable");

    // Back again: the next refresh brings the new gift in.
    await relay.reopen();
    await donate(api, donationBody(await tokenize(api), { amount: "5.00" }));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await api.get(progressOf("71777", "HOPE"));
    await expect
      .poll(async () => (await api.get(progressOf("71777", "HOPE"))).json.raised, { timeout: 5_000 })
      .toBe("25.00");
  });
});

/** A collected report row of HOPE@71777. */
const row = (amount: string, email?: string) => ({
  amount,
  status: "collected",
  shortcode: "71777",
  keyword: "HOPE",
  ...(email ? { email } : {}),
});

describe("the progress cache", () => {
  const campaign = {
    shortcode: "71777",
    keyword: "HOPE",
    currency: "USD",
    goal_amount: "100.00",
  } as Parameters<ReturnType<typeof createProgressCache>["get"]>[0];

  it("counts donors by e-mail, and each row without one as a donor of its own", () => {
    const rows = [row("1.10"), row("2.20", "a@x.org"), row("3.30", "A@x.org "), row("0.05")];
    expect(summarize(rows as never)).toEqual({ raisedCents: 665, donors: 3 });
  });

  it("refreshes after its time in the background, one report at a time, and keeps the old value meanwhile", async () => {
    let now = 0;
    let reports = 0;
    let release: (() => void) | undefined;
    let rows = [row("10.00")];
    const upstream = {
      transactions: async () => {
        reports++;
        if (reports > 1) await new Promise<void>((resolve) => (release = resolve));
        return { rows, skipped: 0 };
      },
    } as unknown as UpstreamClient;
    const cache = createProgressCache({ upstream, ttlS: 60, now: () => now });
    expect((await cache.get(campaign)).raised).toBe("10.00");
    now = 61_000;
    rows = [row("10.00"), row("5.00")];
    expect((await cache.get(campaign)).raised).toBe("10.00");
    expect((await cache.get(campaign)).raised).toBe("10.00");
    expect(reports).toBe(2);
    release!();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await cache.get(campaign)).raised).toBe("15.00");
    expect((await cache.get(campaign)).goal).toBe("100.00");
  });

  it("gifts charged here are counted at once, by one more report however many there are", async () => {
    let now = 0;
    let reports = 0;
    let rows = [row("10.00")];
    const upstream = {
      transactions: async () => {
        reports++;
        return { rows, skipped: 0 };
      },
    } as unknown as UpstreamClient;
    const cache = createProgressCache({ upstream, ttlS: 60, now: () => now });
    // Nobody has asked for this campaign's progress yet: a gift costs no report.
    cache.changed(campaign);
    expect(reports).toBe(0);
    expect((await cache.get(campaign)).raised).toBe("10.00");
    now += RECOUNT_MIN_MS;
    rows = [row("10.00"), row("5.00"), row("2.50")];
    for (let gift = 0; gift < 50; gift++) cache.changed(campaign);
    // Well within the cache's time, the page asking now waits for the gifts to be counted.
    expect((await cache.get(campaign)).raised).toBe("17.50");
    expect(reports).toBe(2);
  });
});
