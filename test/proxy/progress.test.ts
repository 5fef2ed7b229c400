// GET /v1/campaigns/{shortcode}/{keyword}/progress: raised and donors from the sandbox's own report.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Campaign } from "../../contract/api";
import { fromCents, toCents } from "../../contract/money";
import type { ReportRequest, TransactionRow } from "../../contract/upstream";
import { createMetrics } from "../../proxy/metrics";
import type { ProblemError } from "../../proxy/problem";
import type { RowsShape, RowsSink } from "../../proxy/upstream/http";
import { BACKOFF_MS, createProgressCache, RECOUNT_MIN_MS } from "../../proxy/campaign/progress";
import { summarize } from "../../proxy/campaign/progress-tally";
import type { Store } from "../../proxy/store";
import { openSqliteStore } from "../../proxy/store/sqlite";
import { DB_FILE } from "../../proxy/store/sqlite/data-dir";
import { openSqlite } from "../../sqlite/open";
import { reportRow, startFakeUpstream, type FakeUpstream } from "../helpers/fake-upstream";
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
      // Their age, in seconds since the report behind them was read.
      expect(Number(stale.headers.get("age"))).toBeGreaterThanOrEqual(1);
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

/** A collected report row of HOPE@71777, made at `at` (ms; default 10 days before the tests' clock). */
const row = (amount: string, email?: string, at = DAY0 - 10 * DAY_MS) =>
  reportRow({
    transaction_id: `t${++rowsMade}`,
    amount,
    donation_amount: amount,
    created_at: new Date(at).toISOString(),
    email,
  });
let rowsMade = 0;

const DAY_MS = 86_400_000;
/** The tests' clock starts at noon, UTC. */
const DAY0 = Date.parse("2026-11-20T12:00:00.000Z");

/** MM/DD/YY → the UTC midnight it names. */
const dayOf = (date: string) =>
  Date.parse(`20${date.slice(6)}-${date.slice(0, 2)}-${date.slice(3, 5)}T00:00:00Z`);

/** An upstream whose report holds `rows` and honours start_date, as the sandbox does; reads counted. */
function fakeUpstream(initial: TransactionRow[]) {
  const fake = {
    rows: initial,
    filters: [] as ReportRequest[],
    /** When set, the report fails with it. */
    failure: undefined as Error | undefined,
    /** When set, a report waits for it before answering. */
    gate: undefined as Promise<void> | undefined,
    upstream: {
      // The report's answer as bytes, to the sink the cache gives (its reading thread), as http.ts does.
      async readTransactions<Sink extends RowsSink>(filter: ReportRequest, open: (shape: RowsShape) => Sink) {
        fake.filters.push(filter);
        await fake.gate;
        if (fake.failure) throw fake.failure;
        const since = filter.start_date ? dayOf(filter.start_date) : 0;
        const transactions = fake.rows.filter((each) => Date.parse(each.created_at) >= since);
        const sink = open({ path: ["report", "transactions"], maxRowBytes: 1 << 20 });
        sink.write(Buffer.from(JSON.stringify({ report: { id: 1, status: "completed", transactions } })));
        await sink.end();
        return sink;
      },
    },
  };
  return fake;
}

describe("the progress cache", () => {
  const campaign = {
    shortcode: "71777",
    keyword: "HOPE",
    currency: "USD",
    goal_amount: "100.00",
  } as Campaign;
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  function sqliteStore(now: () => number, dir?: string): Store {
    if (!dir) dirs.push((dir = mkdtempSync(join(tmpdir(), "givekit-progress-"))));
    const store = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 23_000, now });
    stores.push(store);
    return store;
  }

  it("counts donors by e-mail, and each row without one as a donor of its own", () => {
    const rows = [row("1.10"), row("2.20", "a@x.org"), row("3.30", "A@x.org "), row("0.05")];
    expect(summarize(rows as never)).toEqual({ raisedCents: 665, donors: 3 });
  });

  it("refreshes after its time in the background, one report at a time, and keeps the old value meanwhile", async () => {
    let now = DAY0;
    const fake = fakeUpstream([row("10.00")]);
    const cache = createProgressCache({
      upstream: fake.upstream,
      store: sqliteStore(() => now),
      ttlS: 60,
      now: () => now,
    });
    expect((await cache.get(campaign)).raised).toBe("10.00");
    now += 61_000;
    fake.rows = [row("10.00"), row("5.00", undefined, now - 1000)];
    let release!: () => void;
    fake.gate = new Promise<void>((resolve) => (release = resolve));
    expect((await cache.get(campaign)).raised).toBe("10.00");
    now += 1500;
    expect((await cache.get(campaign)).raised).toBe("10.00");
    expect(fake.filters).toHaveLength(2);
    release();
    await expect.poll(async () => ((now += 1000), (await cache.get(campaign)).raised)).toBe("15.00");
    expect((await cache.get(campaign)).goal).toBe("100.00");
    expect(fake.filters).toHaveLength(2);
  });

  it("after the first full read, a refresh reads only the rows from the last midnight on, and the figures stay whole", async () => {
    // 22:00 UTC: three hours before a new day.
    const start = Date.parse("2026-11-20T22:00:00.000Z");
    let now = start;
    const fake = fakeUpstream([
      row("10.00", "ana@example.org"),
      row("20.00", "ben@example.org"),
      row("1.00"),
      // Yesterday's: in the base, though the day before today is asked for again.
      row("8.00", "eve@example.org", start - 30 * 3600_000),
      // Today's: Ana again (one donor).
      row("5.00", "ANA@example.org", start - 3600_000),
    ]);
    const cache = createProgressCache({
      upstream: fake.upstream,
      store: sqliteStore(() => now),
      ttlS: 60,
      now: () => now,
    });
    expect(await cache.get(campaign)).toMatchObject({ raised: "44.00", donors: 4 });
    expect(fake.filters[0]).not.toHaveProperty("start_date");

    now += 61_000;
    fake.rows.push(row("7.00", "cleo@example.org", now - 1000), row("3.00", "ben@example.org", now - 500));
    await cache.get(campaign);
    await expect.poll(() => fake.filters.length).toBe(2);
    // Asked from the day before today (the upstream's day may not be UTC's), kept from midnight on.
    expect(fake.filters[1]).toMatchObject({ start_date: "11/19/26", status: "collected" });
    await expect.poll(async () => ((now += 1000), (await cache.get(campaign)).raised)).toBe("54.00");
    expect((await cache.get(campaign)).donors).toBe(5);

    // The next day, past BASE_LAG_MS and within FULL_READ_EVERY_MS of the full read: yesterday
    // folds into the base.
    now = start + 5 * 3600_000;
    fake.rows.push(row("4.00", "dev@example.org", now - 1000), row("2.00", "cleo@example.org", now - 900));
    await cache.get(campaign);
    await expect.poll(async () => ((now += 1000), (await cache.get(campaign)).raised)).toBe("60.00");
    const all = summarize(fake.rows);
    expect(await cache.get(campaign)).toMatchObject({
      raised: fromCents(all.raisedCents),
      donors: all.donors,
    });
    expect(fake.filters.at(-1)).toMatchObject({ start_date: "11/19/26" });
    expect((await cache.figures(campaign))?.base_before).toBe(Date.parse("2026-11-21T00:00:00Z"));
  });

  it("sums what each fundraiser and team is credited across full and changes reads; figures saved before the sums were kept are read in full once", async () => {
    const start = Date.parse("2026-11-20T22:00:00.000Z");
    let now = start;
    /** A row crediting fundraiser `f` (and team `t`): amount with a covered fee, the donation apart. */
    const credited = (donation: string, f: string | null, t: string | null, at: number) =>
      ({
        ...row(fromCents(toCents(donation) + 100), undefined, at),
        donation_amount: donation,
        peer_fundraiser_id: f,
        peer_fundraiser_team_id: t,
      }) as unknown as TransactionRow;
    const fake = fakeUpstream([
      credited("10.00", "101", "7", start - 30 * 3600_000),
      credited("20.00", "102", null, start - 3600_000),
      row("99.00"),
    ]);
    const dir = mkdtempSync(join(tmpdir(), "givekit-progress-"));
    dirs.push(dir);
    const cache = createProgressCache({
      upstream: fake.upstream,
      store: sqliteStore(() => now, dir),
      ttlS: 60,
      now: () => now,
    });
    /** What each peer is credited, as a map of id to cents: the sums the report's rows give. */
    const expected = () => {
      const sums = { fundraiser: {} as Record<string, number>, team: {} as Record<string, number> };
      for (const each of fake.rows as unknown as Record<string, string | null>[]) {
        const cents = each.donation_amount ? toCents(each.donation_amount) : 0;
        const f = each.peer_fundraiser_id;
        const t = each.peer_fundraiser_team_id;
        if (f) sums.fundraiser[f] = (sums.fundraiser[f] ?? 0) + cents;
        if (t) sums.team[t] = (sums.team[t] ?? 0) + cents;
      }
      return sums;
    };
    expect((await cache.live(campaign)).credits).toEqual({
      fundraiser: { 101: 1000, 102: 2000 },
      team: { 7: 1000 },
    });

    // A changes read adds today's rows to the base's sums.
    now += 61_000;
    fake.rows.push(credited("5.00", "101", "7", now - 1000), credited("2.50", null, "8", now - 500));
    await cache.get(campaign);
    await expect.poll(async () => ((now += 1000), (await cache.live(campaign)).credits)).toEqual(expected());
    expect(fake.filters.at(-1)).toHaveProperty("start_date");

    // The next day: yesterday's rows fold into the base, the sums stay whole.
    now = start + 5 * 3600_000;
    fake.rows.push(credited("1.25", "102", null, now - 1000));
    await cache.get(campaign);
    await expect.poll(async () => ((now += 1000), (await cache.live(campaign)).credits)).toEqual(expected());
    expect(fake.filters.at(-1)).toHaveProperty("start_date");

    // Figures from before the store kept the sums: the next read is a full one, and the sums whole.
    const db = openSqlite(join(dir, DB_FILE));
    db.prepare("UPDATE progress_figures SET credits = NULL").run();
    db.close();
    const reads = fake.filters.length;
    now += 61_000;
    await cache.get(campaign);
    await expect.poll(() => fake.filters.length).toBe(reads + 1);
    expect(fake.filters.at(-1)).not.toHaveProperty("start_date");
    await expect.poll(async () => ((now += 1000), (await cache.live(campaign)).credits)).toEqual(expected());
  });

  it("a failed read serves the last figures, counts the failure, and backs off rather than read per page view", async () => {
    let now = DAY0;
    const fake = fakeUpstream([row("10.00")]);
    const metrics = createMetrics();
    const stale: unknown[] = [];
    const cache = createProgressCache({
      upstream: fake.upstream,
      store: sqliteStore(() => now),
      ttlS: 60,
      now: () => now,
      metrics,
      onStale: (_campaign, error) => stale.push(error),
    });
    await cache.get(campaign);
    fake.failure = new Error("the report was cut off");
    now += 61_000;
    expect((await cache.get(campaign)).raised).toBe("10.00");
    await expect.poll(() => stale.length).toBe(1);
    // 20 views over 8 s, within the first back-off (10 s).
    for (let view = 0; view < 20; view++) {
      now += 400;
      expect((await cache.get(campaign)).raised).toBe("10.00");
    }
    // One read for the first figures, one that failed: the page views after it asked nothing.
    expect(fake.filters).toHaveLength(2);
    expect(await metrics.registry.getSingleMetricAsString("givekit_progress_reads_total")).toContain(
      'givekit_progress_reads_total{kind="changes",result="failed"} 1',
    );
    // After the back-off, the next page view reads again.
    fake.failure = undefined;
    fake.rows.push(row("5.00", undefined, now));
    now += BACKOFF_MS.first;
    await cache.get(campaign);
    await expect.poll(async () => (await cache.get(campaign)).raised).toBe("15.00");
  });

  it("cold: waits for the first read; with none to be had, 503 with Retry-After at once on the next view", async () => {
    let now = DAY0;
    const fake = fakeUpstream([row("10.00")]);
    fake.failure = new Error("upstream down");
    const cache = createProgressCache({
      upstream: fake.upstream,
      store: sqliteStore(() => now),
      ttlS: 60,
      now: () => now,
    });
    const first = await cache.get(campaign).catch((error: unknown) => error);
    expect(first).toMatchObject({ code: "upstream_unavailable" });
    expect((first as ProblemError).headers["Retry-After"]).toBe(String(BACKOFF_MS.first / 1000));
    const started = Date.now();
    await expect(cache.get(campaign)).rejects.toMatchObject({ code: "upstream_unavailable" });
    expect(Date.now() - started).toBeLessThan(200);
    expect(fake.filters).toHaveLength(1);
  });

  it("a restart (a new cache on the same store) serves the stored figures without reading the report", async () => {
    let now = DAY0;
    const dir = mkdtempSync(join(tmpdir(), "givekit-progress-"));
    dirs.push(dir);
    const fake = fakeUpstream([row("10.00"), row("2.50")]);
    const first = sqliteStore(() => now, dir);
    await createProgressCache({ upstream: fake.upstream, store: first, ttlS: 60, now: () => now }).get(
      campaign,
    );
    await first.close();
    stores.splice(stores.indexOf(first), 1);
    now += 10_000;
    const again = createProgressCache({
      upstream: fake.upstream,
      store: sqliteStore(() => now, dir),
      ttlS: 60,
      now: () => now,
    });
    expect((await again.get(campaign)).raised).toBe("12.50");
    expect(fake.filters).toHaveLength(1);
  });

  it("two proxies on one store read the report once per interval between them", async () => {
    let now = DAY0;
    const fake = fakeUpstream([row("10.00")]);
    const store = sqliteStore(() => now);
    const a = createProgressCache({ upstream: fake.upstream, store, ttlS: 60, now: () => now });
    const b = createProgressCache({ upstream: fake.upstream, store, ttlS: 60, now: () => now });
    for (let second = 0; second < 180; second += 5) {
      now = DAY0 + second * 1000;
      const [fromA, fromB] = await Promise.all([a.get(campaign), b.get(campaign)]);
      expect([fromA.raised, fromB.raised]).toEqual(["10.00", "10.00"]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // 180 s at a 60 s interval: the first read and at most one a minute after it.
    expect(fake.filters.length).toBeGreaterThanOrEqual(2);
    expect(fake.filters.length).toBeLessThanOrEqual(4);
  });

  it("gifts charged here are counted at once, by one more read however many there are", async () => {
    let now = DAY0;
    const fake = fakeUpstream([row("10.00")]);
    const cache = createProgressCache({
      upstream: fake.upstream,
      store: sqliteStore(() => now),
      ttlS: 60,
      now: () => now,
    });
    // Nobody has asked for this campaign's progress yet: a gift costs no report.
    cache.changed(campaign);
    expect(fake.filters).toHaveLength(0);
    expect((await cache.get(campaign)).raised).toBe("10.00");
    now += RECOUNT_MIN_MS;
    fake.rows = [row("10.00"), row("5.00", undefined, now - 100), row("2.50", undefined, now - 50)];
    for (let gift = 0; gift < 50; gift++) cache.changed(campaign);
    now += 1;
    // Well within the interval, the page asking now waits for the gifts to be counted.
    expect((await cache.get(campaign)).raised).toBe("17.50");
    expect(fake.filters).toHaveLength(2);
  });
});

describe("progress when the report is cut off, malformed or slower than its time limit", () => {
  const campaign = { shortcode: "71777", keyword: "HOPE", currency: "USD" } as unknown as Campaign;
  let fake: FakeUpstream | undefined;
  let store: Store | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await fake?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("each keeps the last good figures with their age, warns and counts a failed read", async () => {
    const good = [reportRow({ amount: "10.00" }), reportRow({ transaction_id: "t2", amount: "2.50" })];
    let plan: "good" | "cut" | "malformed" | "slow" = "good";
    fake = await startFakeUpstream(({ path }, res) => {
      if (path === "/api/v2/reports/transactions.json") {
        res.writeHead(200).end(JSON.stringify({ report: { id: 1, status: "pending" } }));
        return;
      }
      const head = '{"report":{"id":1,"status":"complete","transactions":[';
      const rows = good.map((each) => JSON.stringify(each)).join(",");
      if (plan === "good") res.writeHead(200).end(`${head}${rows}]}}`);
      else if (plan === "cut") res.writeHead(200).end(`${head}${rows.slice(0, 100)}`);
      else if (plan === "malformed") res.writeHead(200).end(`${head}${rows},{"amount": 1.00.0}]}}`);
      // Slow: a first row, then nothing within the read's time limit.
      else res.writeHead(200).write(`${head}${JSON.stringify(good[0])}`);
    });
    let now = DAY0;
    dir = mkdtempSync(join(tmpdir(), "givekit-progress-"));
    store = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 23_000, now: () => now });
    const metrics = createMetrics();
    const warnings: string[] = [];
    const cache = createProgressCache({
      upstream: fake.client,
      store,
      ttlS: 60,
      now: () => now,
      metrics,
      reportTimeoutMs: 1500,
      onStale: (_campaign, error) => warnings.push(String((error as Error).message)),
    });
    const donors = summarize(good).donors;
    expect(await cache.get(campaign)).toMatchObject({ raised: "12.50", donors });
    for (const [index, failure] of (["cut", "malformed", "slow"] as const).entries()) {
      plan = failure;
      // Past the interval and the back-off of the failure before.
      now += 61_000 + BACKOFF_MS.first * 2 ** index;
      const served = await cache.get(campaign);
      expect(served).toMatchObject({ raised: "12.50", donors, updated_at: new Date(DAY0).toISOString() });
      await expect.poll(() => warnings.length, { timeout: 5000 }).toBe(index + 1);
    }
    expect(warnings.join(" ")).not.toContain("1.00.0");
    expect(await metrics.registry.getSingleMetricAsString("givekit_progress_reads_total")).toContain(
      'givekit_progress_reads_total{kind="changes",result="failed"} 3',
    );
    expect((await cache.figures(campaign))?.failures).toBe(3);
  });
});
