// The upstream client's transactions report: asked for, polled until ready, each row checked on its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemOf } from "../../../proxy/problem";
import { UpstreamAnswerError } from "../../../proxy/upstream/errors";
import { createUpstreamClient, type UpstreamClient } from "../../../proxy/upstream/client";
import { reportRow, startFakeUpstream, type FakeUpstream } from "../../helpers/fake-upstream";
import { DEMO, startSandbox, type SandboxHandle } from "../../helpers/sandbox";
import { donate, donation, login } from "../../sandbox/support";

const TIMEOUTS = { connectTimeoutMs: 1000, timeoutMs: 2000 };

describe("against the sandbox", () => {
  let sandbox: SandboxHandle;
  let client: UpstreamClient;
  beforeAll(async () => {
    sandbox = await startSandbox();
    client = createUpstreamClient({ baseUrl: sandbox.url, ...DEMO.hope, ...TIMEOUTS });
  });
  afterAll(async () => {
    client.close();
    await sandbox.close();
  });

  it("returns the rows the filter names, as the sandbox recorded them", async () => {
    const session = await login(sandbox);
    await donate(sandbox, session, donation({ amount: "12.00", last_name: "Report" }));
    await donate(sandbox, session, donation({ amount: "30.00", card_number: "4000000000000002" }));
    await donate(
      sandbox,
      session,
      donation({ shortcode_string: "41444", keyword_string: "MEALS", amount: "7.00" }),
    );

    const hope = await client.transactions({ keyword: "HOPE", shortcode: "71777", status: "collected" });
    expect(hope.skipped).toBe(0);
    expect(hope.rows.map((row) => [row.amount, row.status, row.keyword, row.last_name])).toEqual([
      ["12.00", "collected", "HOPE", "Report"],
    ]);
    const declined = await client.transactions({ status: "declined" });
    expect(declined.rows.map((row) => [row.amount, row.last_4])).toEqual([["30.00", "0002"]]);
  });

  it("a filter the upstream refuses is a problem, not an empty list", async () => {
    const lost = await client.transactions({ status: "lost" }).catch((caught: unknown) => caught);
    expect(problemOf(lost)).toMatchObject({ code: "upstream_error" });
  });
});

describe("against an upstream whose reports take time", () => {
  let fake: FakeUpstream;
  let client: UpstreamClient;
  let polls = 0;
  /** What each report id does: ready after this many polls, or never; "broken" answers 500. */
  const plans: Record<string, number | "never" | "broken"> = {};
  const good = reportRow({ amount: "10.00", donation_amount: "10.00" });

  beforeAll(async () => {
    fake = await startFakeUpstream(({ method, path, authorization, body }, res) => {
      if (method !== "GET" || authorization !== 'Token token="p"') {
        res.writeHead(401).end();
        return;
      }
      if (path === "/api/v2/reports/transactions.json") {
        const id = String(body.keyword ?? "");
        if (plans[id] === "broken") res.writeHead(500).end("oops");
        else res.writeHead(200).end(JSON.stringify({ report: { id, status: "pending" } }));
        return;
      }
      if (path === "/api/v2/reports/results.json") {
        polls++;
        const plan = plans[String(body.id)];
        const ready = typeof plan === "number" && polls >= plan;
        res.writeHead(200).end(
          JSON.stringify({
            report: ready
              ? { id: body.id, status: "complete", transactions: [good, { ...good, amount: 12 }, "?"] }
              : { id: body.id, status: "pending" },
          }),
        );
        return;
      }
      res.writeHead(404).end();
    });
    client = fake.client;
  });
  afterAll(() => fake.close());

  it("polls results.json until the report is ready; rows of an unknown shape are skipped and counted", async () => {
    plans.SLOW = 3;
    polls = 0;
    const report = await client.transactions({ keyword: "SLOW" });
    expect(polls).toBe(3);
    expect(report.rows).toEqual([good]);
    expect(report.skipped).toBe(2);
  });

  it("a report never ready is a problem once UPSTREAM_TIMEOUT_MS has passed, not a wait forever", async () => {
    plans.NEVER = "never";
    const started = Date.now();
    const error = await client.transactions({ keyword: "NEVER" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamAnswerError);
    expect(problemOf(error)).toMatchObject({ code: "upstream_error" });
    expect(Date.now() - started).toBeLessThan(TIMEOUTS.timeoutMs + 500);
  });

  it("an upstream error on the report is a problem that carries none of its text", async () => {
    plans.BROKEN = "broken";
    const error = await client.transactions({ keyword: "BROKEN" }).catch((caught: unknown) => caught);
    expect(problemOf(error)).toMatchObject({ code: "upstream_error" });
    expect(String((error as Error).message)).not.toContain("oops");
  });
});
