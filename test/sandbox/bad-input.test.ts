// Bad input: every malformed request gets a 4xx JSON answer naming the problem, charges nothing,
// and leaves the server running.
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { type SandboxHandle } from "../helpers/sandbox";
import { type Answer, auth, call, collected, donate, donation, login, useSandbox } from "./support";

const DONATE = "/api/v2/donations/donate";

/** A body sent in chunks with no Content-Length (Transfer-Encoding: chunked). */
function postChunked(
  sandbox: SandboxHandle,
  path: string,
  authorization: string,
  body: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${sandbox.url}${path}`,
      { method: "POST", headers: { "Content-Type": "application/json", Authorization: authorization } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    const piece = 8 * 1024;
    for (let at = 0; at < body.length; at += piece) req.write(body.slice(at, at + piece));
    req.end();
  });
}

describe("bad input", () => {
  const ctx = useSandbox();

  /** The sandbox still works and nothing was charged. */
  const stillFineAndNothingCharged = async (session: string) => {
    expect(await ctx.sandbox.transactions()).toEqual([]);
    const ok = await donate(ctx.sandbox, session, donation({ amount: "1.00" }));
    expect(ok.json.donation.status).toBe("Success");
    expect((await collected(ctx.sandbox)).map((row) => row.amount)).toEqual(["1.00"]);
  };

  it("bad JSON → 400 malformed_json", async () => {
    const session = await login(ctx.sandbox);
    const answer = await call(ctx.sandbox.url, DONATE, {
      authorization: auth(session, "session"),
      raw: '{"amount": "25", ',
    });
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/application\/json/);
    expect(answer.json.error.code).toBe("malformed_json");
    await stillFineAndNothingCharged(session);
  });

  for (const raw of ["[]", "null", '"text"', "42"]) {
    it(`a JSON body that is not an object (${raw}) → 400`, async () => {
      const session = await login(ctx.sandbox);
      const answer = await call(ctx.sandbox.url, DONATE, { authorization: auth(session, "session"), raw });
      expect(answer.status).toBe(400);
      expect(answer.json.error.message).toMatch(/object/);
      await stillFineAndNothingCharged(session);
    });
  }

  it("an empty body → 400", async () => {
    const session = await login(ctx.sandbox);
    const answer = await call(ctx.sandbox.url, DONATE, { authorization: auth(session, "session") });
    expect(answer.status).toBe(400);
    await stillFineAndNothingCharged(session);
  });

  it("wrong types → 400 naming each field", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(
      ctx.sandbox,
      session,
      donation({ amount: 25, anonymous: "yes", fee_rate: "0.03", peer_fundraiser_id: { id: 1 } }),
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("validation_failed");
    expect(Object.keys(answer.json.error.fields).toSorted()).toEqual([
      "amount",
      "anonymous",
      "fee_rate",
      "peer_fundraiser_id",
    ]);
    await stillFineAndNothingCharged(session);
  });

  it("unknown fields → 400 naming them", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ amount_cents: 2500, tip: "1" }));
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields).toEqual({ amount_cents: ["Unknown field."], tip: ["Unknown field."] });
    await stillFineAndNothingCharged(session);
  });

  it("__proto__ and constructor keys are unknown fields: 400, nothing charged, nothing polluted", async () => {
    const session = await login(ctx.sandbox);
    const raw = JSON.stringify(donation()).replace(
      /}$/,
      ',"__proto__":{"polluted":true},"constructor":{"x":1}}',
    );
    const answer = await call(ctx.sandbox.url, DONATE, { authorization: auth(session, "session"), raw });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.json.error.fields).toSorted()).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await stillFineAndNothingCharged(session);
  });

  it("a field longer than allowed → 400 naming it", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ memo: "x".repeat(5_000) }));
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields).toHaveProperty("memo");
    await stillFineAndNothingCharged(session);
  });

  it("a body over 64 KB (with Content-Length) → 413 payload_too_large", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ memo: "x".repeat(70 * 1024) }));
    expect(answer.status).toBe(413);
    expect(answer.json.error.code).toBe("payload_too_large");
    expect(answer.json.donation.status).toBe("Error");
    await stillFineAndNothingCharged(session);
  });

  it("a body over 64 KB sent chunked (no Content-Length) → 413 payload_too_large", async () => {
    const session = await login(ctx.sandbox);
    const answer = await postChunked(
      ctx.sandbox,
      DONATE,
      auth(session, "session"),
      JSON.stringify(donation({ memo: "y".repeat(100 * 1024) })),
    );
    expect(answer.status).toBe(413);
    expect(answer.json.error.code).toBe("payload_too_large");
    await stillFineAndNothingCharged(session);
  });

  it("a body just under 64 KB is read (and refused only for its too-long memo)", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ memo: "z".repeat(60 * 1024) }));
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields).toHaveProperty("memo");
  });

  it("a body that is not JSON by Content-Type → 415", async () => {
    const session = await login(ctx.sandbox);
    const answer = await call(ctx.sandbox.url, DONATE, {
      authorization: auth(session, "session"),
      raw: "amount=25&card_number=4242424242424242",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(answer.status).toBe(415);
    expect(answer.json.error.code).toBe("unsupported_media_type");
    await stillFineAndNothingCharged(session);
  });

  it("missing auth on every protected endpoint → 401 JSON", async () => {
    for (const [method, path] of [
      ["POST", "/api/v2/users/login_with_auth_token"],
      ["POST", "/api/v2/donations/create_payment_token"],
      ["POST", DONATE],
      ["POST", "/api/v2/subscriptions/subscribe.json"],
      ["GET", "/api/v2/fundraisers"],
      ["GET", "/api/v2/teams"],
      ["GET", "/api/v2/reports/transactions.json"],
      ["GET", "/api/v2/reports/results.json"],
    ] as const) {
      const answer = await call(ctx.sandbox.url, path, { method, body: {} });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.json.error.code).toBe("missing_authorization");
    }
  });

  it("an unknown route → 404 JSON", async () => {
    const answer = await call(ctx.sandbox.url, "/api/v2/donations/refund", { body: {} });
    expect(answer.status).toBe(404);
    expect(answer.json.error).toMatchObject({
      code: "not_found",
      message: expect.stringContaining("/api/v2/donations/refund"),
    });
  });

  it("9 versioning: the version is the path prefix /api/v2; other versions are not found", async () => {
    const session = await login(ctx.sandbox);
    const answer = await call(ctx.sandbox.url, "/api/v1/donations/donate", {
      authorization: auth(session, "session"),
      body: donation(),
    });
    expect(answer.status).toBe(404);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("a known route with another method → 405 JSON with Allow", async () => {
    const answer = await call(ctx.sandbox.url, DONATE, { method: "GET" });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("POST");
    expect(answer.json.error.code).toBe("method_not_allowed");
  });

  it("/_sandbox/requests lists every call received, refused ones too, without bodies", async () => {
    const session = await login(ctx.sandbox);
    await donate(ctx.sandbox, session, donation({ amount: "0" }));
    await call(ctx.sandbox.url, "/nowhere?token=abc", { method: "GET" });
    const requests = await ctx.sandbox.requests();
    expect(requests.map((entry) => [entry.method, entry.path])).toEqual([
      ["POST", "/api/v2/users/login_with_auth_token"],
      ["POST", DONATE],
      ["GET", "/nowhere"],
    ]);
    expect(Object.keys(requests[0]!).toSorted()).toEqual(["at", "method", "path"]);
    expect(JSON.stringify(requests)).not.toContain("4242");
  });
});
