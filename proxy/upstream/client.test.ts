// The upstream client's reading of answers, with shapes the real service might send (lenient parsing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemOf } from "../problem";
import { UpstreamAnswerError } from "./errors";
import type { UpstreamClient } from "./client";
import { startFakeUpstream, type FakeUpstream } from "../../test/helpers/fake-upstream";

/** Donate answers by amount: status and body as text. */
const DONATE_ANSWERS: Record<string, [number, string]> = {
  "1.00": [
    200,
    '{"donation":{"status":"Success","message":"ok","transaction_id":42,"extra":true},"meta":{}}',
  ],
  "2.00": [402, '{"donation":{"status":"Error","message":"Do not honor"}}'],
  "3.00": [
    404,
    '{"donation":{"status":"Error","message":"No such keyword"},"error":{"code":"x","message":"y"}}',
  ],
  "4.00": [503, ""],
  "5.00": [200, "<html>gateway</html>"],
  "6.00": [400, '{"error":{"code":"invalid_peer","message":"no","fields":{"peer_fundraiser_id":["no"]}}}'],
  "7.00": [200, '{"donation":{"status":"Fatal"}}'],
};

let fake: FakeUpstream;
let client: UpstreamClient;
let logins = 0;

beforeAll(async () => {
  fake = await startFakeUpstream(({ path, body }, res) => {
    if (path === "/api/v2/users/login_with_auth_token") {
      logins++;
      res.writeHead(200).end(`{"user":{"session_token":"s${logins}","id":1}}`);
      return;
    }
    if (path === "/api/v2/donations/donate") {
      const [status, text] = DONATE_ANSWERS[body.amount as string] ?? [500, ""];
      res.writeHead(status, { "Content-Type": "application/json" }).end(text);
      return;
    }
    if (path === "/api/v2/subscriptions/subscribe.json") {
      const list = body.list as string;
      if (list === "ok") res.writeHead(200).end('{"subscription":{"status":200,"message":"Subscribed"}}');
      else if (list === "missing")
        res.writeHead(404).end('{"subscription":{"status":404,"error":"no list"}}');
      else res.writeHead(500).end("oops");
      return;
    }
    res.writeHead(404).end();
  });
  client = fake.client;
});

afterAll(() => fake.close());

const donate = (amount: string) =>
  client.donate({ amount, shortcode_string: "71777", keyword_string: "HOPE" });

describe("the upstream client reads donate answers leniently", () => {
  it("Success with extra fields and a numeric transaction id", async () => {
    expect(await donate("1.00")).toEqual({
      kind: "succeeded",
      httpStatus: 200,
      message: "ok",
      transactionId: "42",
    });
  });

  it("a 402 with a donation object is a decline", async () => {
    expect(await donate("2.00")).toEqual({ kind: "declined", httpStatus: 402 });
  });

  it("another 4xx is a refusal (nothing charged), whatever its body says", async () => {
    expect(await donate("3.00")).toEqual({ kind: "rejected", httpStatus: 404, fields: [] });
  });

  it("a 400 names the fields the upstream pointed at (names only)", async () => {
    expect(await donate("6.00")).toEqual({
      kind: "rejected",
      httpStatus: 400,
      fields: ["peer_fundraiser_id"],
    });
  });

  it("a 5xx without a donation object, or an unreadable 200, is unknown", async () => {
    expect(await donate("4.00")).toMatchObject({ kind: "unknown", httpStatus: 503 });
    expect(await donate("5.00")).toMatchObject({ kind: "unknown", httpStatus: 200 });
  });

  it("Fatal without a message is still Fatal", async () => {
    expect(await donate("7.00")).toEqual({ kind: "fatal", httpStatus: 200 });
  });

  it("logs in once for all of these", () => {
    expect(logins).toBe(1);
  });
});

describe("the upstream client reads subscribe answers", () => {
  it("200 → subscribed; 404 → rejected; 500 → a 502 upstream_error problem", async () => {
    expect(await client.subscribe({ mobilenumber: "5550101234", list: "ok" })).toEqual({
      kind: "subscribed",
    });
    expect(await client.subscribe({ mobilenumber: "5550101234", list: "missing" })).toEqual({
      kind: "rejected",
      httpStatus: 404,
    });
    const failure = await client
      .subscribe({ mobilenumber: "5550101234", list: "broken" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamAnswerError);
    expect(problemOf(failure)).toMatchObject({ status: 502, code: "upstream_error" });
  });
});
