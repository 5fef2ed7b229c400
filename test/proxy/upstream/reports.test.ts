// The upstream client's transactions report: asked for, polled until ready, each row checked on its own.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProblemError } from "../../../proxy/problem";
import { createUpstreamClient, type UpstreamClient } from "../../../proxy/upstream/client";
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
    await expect(client.transactions({ status: "lost" })).rejects.toMatchObject({ code: "upstream_error" });
  });
});

describe("against an upstream whose reports take time", () => {
  let server: Server;
  let client: UpstreamClient;
  let polls = 0;
  /** What each report id does: ready after this many polls, or never; "broken" answers 500. */
  const plans: Record<string, number | "never" | "broken"> = {};
  const good = {
    transaction_id: "t1",
    amount: "10.00",
    donation_amount: "10.00",
    fee_amount: "0.00",
    status: "collected",
    transaction_type: "donation",
    recurring_frequency: null,
    shortcode: "71777",
    keyword: "HOPE",
    form_id: null,
    peer_fundraiser_id: null,
    peer_fundraiser_team_id: null,
    source: "api_via_givekit",
    last_4: "4242",
    anonymous: false,
    first_name: "Ana",
    last_name: "Doe",
    created_at: "2026-11-23T10:00:00.000Z",
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk.toString()));
      req.on("end", () => {
        const path = new URL(req.url ?? "/", "http://x").pathname;
        const body = JSON.parse(text || "{}") as { keyword?: string; id?: string };
        if (req.method !== "GET" || req.headers.authorization !== 'Token token="p"') {
          res.writeHead(401).end();
          return;
        }
        if (path === "/api/v2/reports/transactions.json") {
          const id = body.keyword ?? "";
          if (plans[id] === "broken") res.writeHead(500).end("oops");
          else res.writeHead(200).end(JSON.stringify({ report: { id, status: "pending" } }));
          return;
        }
        if (path === "/api/v2/reports/results.json") {
          polls++;
          const plan = plans[body.id ?? ""];
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
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    client = createUpstreamClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      privateToken: "p",
      publicToken: "q",
      ...TIMEOUTS,
    });
  });
  afterAll(async () => {
    client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

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
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ code: "upstream_error" });
    expect(Date.now() - started).toBeLessThan(TIMEOUTS.timeoutMs + 500);
  });

  it("an upstream error on the report is a problem that carries none of its text", async () => {
    plans.BROKEN = "broken";
    const error = await client.transactions({ keyword: "BROKEN" }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "upstream_error" });
    expect(String((error as Error).message)).not.toContain("oops");
  });
});
