// 4.2 reports: transactions.json and results.json, both GETs with a JSON body.
import { describe, expect, it } from "vitest";
import { DEMO } from "../helpers/sandbox";
import { auth, call, donate, donation, login, useSandbox } from "./support";

describe("reports", () => {
  const ctx = useSandbox();
  const report = async (filter: unknown, account: "hope" | "river" = "hope") => {
    const authorization = auth(DEMO[account].privateToken);
    const created = await call(ctx.sandbox.url, "/api/v2/reports/transactions.json", {
      method: "GET",
      authorization,
      body: filter,
    });
    if (created.status !== 200) return { created, results: undefined };
    const results = await call(ctx.sandbox.url, "/api/v2/reports/results.json", {
      method: "GET",
      authorization,
      body: { id: created.json.report.id },
    });
    return { created, results };
  };

  const seed = async () => {
    const session = await login(ctx.sandbox);
    await donate(ctx.sandbox, session, donation({ amount: "5.00" }));
    await donate(ctx.sandbox, session, donation({ amount: "50.00", keyword_string: "RUN" }));
    await donate(ctx.sandbox, session, donation({ amount: "20.00", card_number: "4000000000000002" }));
    await donate(ctx.sandbox, session, donation({ amount: "30.00", card_number: "4000000000000119" }));
    await donate(ctx.sandbox, session, donation({ amount: "15.00", recurring_frequency: "monthly" }));
  };

  it("transactions.json → {report: {id, status}}; results.json {id} → the rows", async () => {
    await seed();
    const { created, results } = await report({});
    expect(created.json).toEqual({ report: { id: expect.any(Number), status: "complete" } });
    expect(results!.json.report).toMatchObject({ id: created.json.report.id, status: "complete" });
    expect(results!.json.report.transactions.map((row: { amount: string }) => row.amount)).toEqual([
      "5.00",
      "50.00",
      "20.00",
      "30.00",
      "15.00",
    ]);
  });

  it("status as a comma list", async () => {
    await seed();
    const { results } = await report({ status: "declined, failed" });
    expect(results!.json.report.transactions.map((row: { status: string }) => row.status)).toEqual([
      "declined",
      "failed",
    ]);
  });

  it("transaction_type as a comma list", async () => {
    await seed();
    const { results } = await report({ transaction_type: "recurring_donation" });
    expect(results!.json.report.transactions.map((row: { amount: string }) => row.amount)).toEqual(["15.00"]);
  });

  it("amount_min as a decimal string (and amount_max)", async () => {
    await seed();
    const { results } = await report({
      amount_min: "20",
      amount_max: "40.00",
      status: "collected,declined,failed",
    });
    expect(results!.json.report.transactions.map((row: { amount: string }) => row.amount)).toEqual([
      "20.00",
      "30.00",
    ]);
  });

  it("keyword filter", async () => {
    await seed();
    const { results } = await report({ keyword: "run" });
    expect(results!.json.report.transactions.map((row: { keyword: string }) => row.keyword)).toEqual(["RUN"]);
  });

  it("a report is a snapshot: donations after it was requested are not in it", async () => {
    const session = await login(ctx.sandbox);
    await donate(ctx.sandbox, session, donation({ amount: "1.00" }));
    const created = await call(ctx.sandbox.url, "/api/v2/reports/transactions.json", {
      method: "GET",
      authorization: auth(DEMO.hope.privateToken),
      body: {},
    });
    await donate(ctx.sandbox, session, donation({ amount: "2.00" }));
    const results = await call(ctx.sandbox.url, "/api/v2/reports/results.json", {
      method: "GET",
      authorization: auth(DEMO.hope.privateToken),
      body: { id: created.json.report.id },
    });
    expect(results.json.report.transactions.map((row: { amount: string }) => row.amount)).toEqual(["1.00"]);
    expect((await ctx.sandbox.transactions()).map((row) => row.amount)).toEqual(["1.00", "2.00"]);
  });

  it("an unknown status or transaction_type → 400 naming it", async () => {
    const { created } = await report({ status: "collected,lost" });
    expect(created.status).toBe(400);
    expect(created.json.error.fields.status[0]).toContain("lost");
    const byType = await report({ transaction_type: "gift" });
    expect(byType.created.status).toBe(400);
  });

  it("an unknown filter field, or amount_min not a decimal string → 400", async () => {
    expect((await report({ campaign: "HOPE" })).created.status).toBe(400);
    expect((await report({ amount_min: 5 })).created.status).toBe(400);
  });

  it("results.json for an unknown report id → 404", async () => {
    const answer = await call(ctx.sandbox.url, "/api/v2/reports/results.json", {
      method: "GET",
      authorization: auth(DEMO.hope.privateToken),
      body: { id: 999 },
    });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe("report_not_found");
  });

  it("results.json without a body → 400", async () => {
    const answer = await call(ctx.sandbox.url, "/api/v2/reports/results.json", {
      method: "GET",
      authorization: auth(DEMO.hope.privateToken),
    });
    expect(answer.status).toBe(400);
  });
});
