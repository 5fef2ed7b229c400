// Lists and reports read as streams: any number of rows, each row bounded, a broken answer a problem.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UpstreamFundraiser } from "../../../contract/upstream";
import { problemOf } from "../../../proxy/problem";
import { MAX_UPSTREAM_RESPONSE_BYTES } from "../../../proxy/upstream/http";
import { reportRow, startFakeUpstream, type FakeUpstream } from "../../helpers/fake-upstream";

/** Each report id the fake knows, as the bytes it sends (possibly cut off). */
type Plan = { chunks: string[]; cut?: boolean };

const report = (rows: unknown[]) => [
  '{"report":{"id":"r","status":"complete","transactions":[',
  ...rows.map((row, index) => (index === 0 ? "" : ",") + JSON.stringify(row)),
  "]}}",
];

describe("a streamed report", () => {
  let fake: FakeUpstream;
  const plans: Record<string, Plan> = {};
  const fundraiserPlans: Record<string, Plan> = {};

  beforeAll(async () => {
    fake = await startFakeUpstream(({ method, path, body }, res) => {
      if (path === "/api/v2/users/login_with_auth_token") {
        res.writeHead(200).end(JSON.stringify({ user: { session_token: "s" } }));
        return;
      }
      const plan =
        path === "/api/v2/reports/transactions.json"
          ? plans[String(body.keyword)]
          : path === "/api/v2/fundraisers"
            ? fundraiserPlans.current
            : undefined;
      if (method !== "GET" || !plan) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      for (const chunk of plan.chunks) res.write(chunk);
      if (plan.cut) res.destroy();
      else res.end();
    });
  });
  afterAll(() => fake.close());

  it("hands over every row of a report many times the 1 MiB cap, one at a time, and counts odd rows", async () => {
    const rows = Array.from({ length: 6000 }, (_, index) =>
      reportRow({ transaction_id: String(index), amount: "1.00", memo: "x".repeat(300) }),
    );
    plans.BIG = { chunks: report([...rows, { odd: true }]) };
    expect(plans.BIG.chunks.join("").length).toBeGreaterThan(2 * MAX_UPSTREAM_RESPONSE_BYTES);
    const seen: string[] = [];
    const count = await fake.client.eachTransaction({ keyword: "BIG" }, (row) =>
      seen.push(row.transaction_id),
    );
    expect(count).toEqual({ rows: 6000, skipped: 1 });
    expect(seen).toEqual(rows.map((row) => row.transaction_id));
    // The array form reads the same stream.
    expect((await fake.client.transactions({ keyword: "BIG" })).rows).toHaveLength(6000);
  });

  it("a report with no rows is an empty report, not a report that is not ready", async () => {
    plans.EMPTY = { chunks: report([]) };
    expect(await fake.client.eachTransaction({ keyword: "EMPTY" }, () => undefined)).toEqual({
      rows: 0,
      skipped: 0,
    });
  });

  it("one row bigger than the 1 MiB bound is a problem, not an unbounded read", async () => {
    plans.HUGE = {
      chunks: report([reportRow(), reportRow({ memo: "y".repeat(MAX_UPSTREAM_RESPONSE_BYTES + 10) })]),
    };
    const error = await fake.client.eachTransaction({ keyword: "HUGE" }, () => undefined).catch((e) => e);
    expect(problemOf(error)).toMatchObject({ code: "upstream_error" });
  });

  it("a report cut off halfway is a problem, never a short total", async () => {
    const rows = Array.from({ length: 500 }, () => reportRow());
    const chunks = report(rows);
    plans.CUT = { chunks: chunks.slice(0, 300), cut: true };
    let seen = 0;
    const error = await fake.client.eachTransaction({ keyword: "CUT" }, () => seen++).catch((e) => e);
    expect(problemOf(error)).toMatchObject({ code: "upstream_error" });
    expect(seen).toBeLessThan(500);
    // Ended cleanly but in the middle of the JSON: the same.
    plans.TRUNCATED = { chunks: chunks.slice(0, 300) };
    const truncated = await fake.client
      .eachTransaction({ keyword: "TRUNCATED" }, () => undefined)
      .catch((e) => e);
    expect(problemOf(truncated)).toMatchObject({ code: "upstream_error" });
  });

  it("an answer that is not JSON is a problem that carries none of its text", async () => {
    plans.JUNK = { chunks: ['{"report":{"id":1,"status":"complete","transactions":[{"a":secret}]}}'] };
    const error = await fake.client.eachTransaction({ keyword: "JUNK" }, () => undefined).catch((e) => e);
    expect(problemOf(error)).toMatchObject({ code: "upstream_error" });
    expect(String((error as Error).message)).not.toContain("secret");
  });

  it("streams a fundraisers list of 20,000 rows (over the old cap) row by row", async () => {
    const names = Array.from({ length: 20_000 }, (_, index) => ({
      id: index,
      name: `Walker number ${index} of the long list`,
      keyword_id: "kw",
    }));
    fundraiserPlans.current = {
      chunks: ['{"fundraisers":[', names.map((row) => JSON.stringify(row)).join(","), ',{"id":{}}]}'],
    };
    expect(fundraiserPlans.current.chunks.join("").length).toBeGreaterThan(MAX_UPSTREAM_RESPONSE_BYTES);
    const seen: UpstreamFundraiser[] = [];
    const count = await fake.client.eachFundraiser("71777", "HOPE", (row) => seen.push(row));
    expect(count).toEqual({ rows: 20_000, skipped: 1 });
    expect(seen.at(-1)).toMatchObject({ id: 19_999, name: "Walker number 19999 of the long list" });
    expect(await fake.client.fundraisers("71777", "HOPE")).toHaveLength(20_000);
  });

  it("a list answer without its list is a problem, an empty list is fine", async () => {
    fundraiserPlans.current = { chunks: ['{"fundraiser":[]}'] };
    const failure = await fake.client
      .eachFundraiser("71777", "HOPE", () => undefined)
      .catch((caught: unknown) => caught);
    expect(problemOf(failure)).toMatchObject({ code: "upstream_error" });
    fundraiserPlans.current = { chunks: ['{"fundraisers":[]}'] };
    expect(await fake.client.fundraisers("71777", "HOPE")).toEqual([]);
  });
});
