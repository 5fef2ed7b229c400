// Sandbox-only scale: POST /_sandbox/bulk builds a big account in seconds, and its reports and
// lists are answered in full, streamed, as the upstream would answer them at that size.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCents } from "../../contract/money";
import { reportDateOf, TransactionRowSchema } from "../../contract/upstream";
import { createUpstreamClient, type UpstreamClient } from "../../proxy/upstream/client";
import { DEMO, type SandboxHandle, startSandbox } from "../helpers/sandbox";
import { call } from "./support";

const GIFTS = 100_000;

describe("a sandbox account of 100,000 gifts and 50,000 walkers", () => {
  let sandbox: SandboxHandle;
  let upstream: UpstreamClient;
  let built: Record<string, unknown>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    upstream = createUpstreamClient({
      baseUrl: sandbox.url,
      ...DEMO.hope,
      connectTimeoutMs: 1000,
      timeoutMs: 60_000,
    });
    const answer = await call(sandbox.url, "/_sandbox/bulk", {
      body: { shortcode: "71777", keyword: "hope", transactions: GIFTS, fundraisers: 50_000, teams: 1000 },
    });
    built = { status: answer.status, ...answer.json };
  });
  afterAll(async () => {
    upstream.close();
    await sandbox.close();
  });

  it("says what it added; the ids follow the sandbox's own", () => {
    expect(built).toMatchObject({
      status: 200,
      transactions: GIFTS,
      first_transaction_id: "100001",
      last_transaction_id: String(100_000 + GIFTS),
      fundraisers: 50_000,
      teams: 1000,
    });
  });

  it("the keyword's report streams every row, each of the report's shape, and they add up to its totals", async () => {
    const totals = (
      await call(sandbox.url, "/_sandbox/totals?shortcode=71777&keyword=HOPE", { method: "GET" })
    ).json;
    let cents = 0;
    let rows = 0;
    const emails = new Set<string>();
    let withoutEmail = 0;
    let firstRow: unknown;
    const { skipped } = await upstream.eachTransaction(
      { shortcode: "71777", keyword: "HOPE", status: "collected" },
      (row) => {
        rows++;
        cents += toCents(row.amount);
        if (typeof row.email === "string") emails.add(row.email);
        else withoutEmail++;
        firstRow ??= row;
      },
      { timeoutMs: 60_000 },
    );
    expect(skipped).toBe(0);
    expect(TransactionRowSchema.safeParse(firstRow).success).toBe(true);
    expect(rows).toBe(totals.collected);
    expect(rows).toBe(GIFTS - GIFTS / 20);
    expect(totals.raised).toBe((cents / 100).toFixed(2));
    expect(totals.donors).toBe(emails.size + withoutEmail);
  });

  it("date and amount filters narrow the report to the days and the amount asked for", async () => {
    const today = reportDateOf(new Date());
    const yesterday = reportDateOf(new Date(Date.now() - 86_400_000));
    const { rows } = await upstream.transactions({
      shortcode: "71777",
      keyword: "HOPE",
      amount_min: "25.00",
      amount_max: "25.00",
      start_date: yesterday,
      end_date: today,
    });
    // 30 days of gifts: two days' worth of the $25 ones (4 in 10, 1 in 4 of them with a fee on top).
    expect(rows.length).toBeGreaterThan(1000);
    expect(rows.length).toBeLessThan(GIFTS / 10);
    expect(rows.every((row) => row.amount === "25.00")).toBe(true);
    const since = Date.parse(`20${yesterday.slice(6)}-${yesterday.slice(0, 2)}-${yesterday.slice(3, 5)}`);
    expect(rows.every((row) => Date.parse(row.created_at) >= since)).toBe(true);
  });

  it("a date that is not MM/DD/YY, or not a day, is a 400 naming the field", async () => {
    const authorization = `Token token="${DEMO.hope.privateToken}"`;
    for (const start_date of ["2026-11-27", "02/30/26"]) {
      const answer = await call(sandbox.url, "/api/v2/reports/transactions.json", {
        method: "GET",
        authorization,
        body: { start_date },
      });
      expect(answer.status).toBe(400);
      expect(answer.json.error.fields).toHaveProperty("start_date");
    }
  });

  it("the fundraisers and teams lists hold every walker and team, streamed", async () => {
    let walkers = 0;
    await upstream.eachFundraiser("71777", "HOPE", (row) => {
      if (!row.is_root && !row.hidden) walkers++;
    });
    // The demo fixture's HOPE walkers plus the 50,000.
    expect(walkers).toBeGreaterThanOrEqual(50_000);
    expect(walkers).toBeLessThan(50_010);
    const teams = await upstream.teams("71777", "HOPE");
    expect(teams.length).toBeGreaterThanOrEqual(1000);
  });

  it("bad bulk requests are 400s naming the field, an unknown keyword 404; nothing is added", async () => {
    const tooMany = await call(sandbox.url, "/_sandbox/bulk", {
      body: { shortcode: "71777", keyword: "HOPE", transactions: 5_000_000 },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.fields).toHaveProperty("transactions");
    const unknown = await call(sandbox.url, "/_sandbox/bulk", {
      body: { shortcode: "71777", keyword: "NOPE", transactions: 10 },
    });
    expect(unknown.status).toBe(404);
    const totals = await call(sandbox.url, "/_sandbox/totals?shortcode=71777&keyword=HOPE", {
      method: "GET",
    });
    expect(totals.json.collected).toBe(GIFTS - GIFTS / 20);
  });
});
