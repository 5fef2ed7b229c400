// Section 5: tokens, their types and the session lifetime.
import { describe, expect, it } from "vitest";
import { DEMO } from "../helpers/sandbox";
import { auth, call, collected, donate, donation, login, subscribe, useSandbox } from "./support";

const LOGIN = "/api/v2/users/login_with_auth_token";

describe("5 authentication", () => {
  const ctx = useSandbox();

  it("login_with_auth_token with a PRIVATE token → a session token", async () => {
    const answer = await call(ctx.sandbox.url, LOGIN, {
      authorization: auth(DEMO.hope.privateToken, "private"),
    });
    expect(answer.status).toBe(200);
    expect(answer.json.user).toMatchObject({
      session_token: expect.any(String),
      expires_in: 3600,
      account_name: "Hope Shelter",
    });
    expect(answer.json.user.session_token).not.toBe(DEMO.hope.privateToken);
    expect(answer.text).not.toContain(DEMO.hope.privateToken);
  });

  it("login with an unknown private token → 401 invalid_token", async () => {
    const answer = await call(ctx.sandbox.url, LOGIN, { authorization: auth("not-a-real-token", "private") });
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe("invalid_token");
  });

  it("login with the PUBLIC token → 403 wrong_token_type", async () => {
    const answer = await call(ctx.sandbox.url, LOGIN, {
      authorization: auth(DEMO.hope.publicToken, "private"),
    });
    expect(answer.status).toBe(403);
    expect(answer.json.error.code).toBe("wrong_token_type");
  });

  it("login with unknown body fields → 400", async () => {
    const answer = await call(ctx.sandbox.url, LOGIN, {
      authorization: auth(DEMO.hope.privateToken, "private"),
      body: { remember_me: true },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields).toHaveProperty("remember_me");
  });

  it('donate takes a SESSION token: the private token with type="session" → 403, nothing charged', async () => {
    const answer = await donate(ctx.sandbox, DEMO.hope.privateToken, donation());
    expect(answer.status).toBe(403);
    expect(answer.json.error.code).toBe("wrong_token_type");
    expect(answer.json.donation.status).toBe("Error");
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it('donate with a session token but type="public" → 403, nothing charged', async () => {
    const session = await login(ctx.sandbox);
    const answer = await call(ctx.sandbox.url, "/api/v2/donations/donate", {
      authorization: auth(session, "public"),
      body: donation(),
    });
    expect(answer.status).toBe(403);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("donate with a session token and no type → 403, nothing charged", async () => {
    const session = await login(ctx.sandbox);
    const answer = await call(ctx.sandbox.url, "/api/v2/donations/donate", {
      authorization: auth(session),
      body: donation(),
    });
    expect(answer.status).toBe(403);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("donate with no Authorization header → 401 missing_authorization, nothing charged", async () => {
    const answer = await call(ctx.sandbox.url, "/api/v2/donations/donate", { body: donation() });
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe("missing_authorization");
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("donate with a malformed Authorization header → 401 malformed_authorization", async () => {
    const session = await login(ctx.sandbox);
    const answer = await call(ctx.sandbox.url, "/api/v2/donations/donate", {
      authorization: `Bearer ${session}`,
      body: donation(),
    });
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe("malformed_authorization");
    expect(answer.text).not.toContain(session);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("donate with an unknown session token → 401 invalid_token, nothing charged", async () => {
    const answer = await donate(ctx.sandbox, "never-issued-session", donation());
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe("invalid_token");
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("subscribe takes the PUBLIC token: a session token → 403, nothing subscribed", async () => {
    const session = await login(ctx.sandbox);
    const answer = await call(ctx.sandbox.url, "/api/v2/subscriptions/subscribe.json", {
      authorization: auth(session, "session"),
      body: { mobilenumber: "5550101234", list: "Hope Alerts" },
    });
    expect(answer.status).toBe(403);
    expect(answer.json.subscription).toMatchObject({ status: 403, error: { code: "wrong_token_type" } });
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });

  it("subscribe with the private token typed as public → 403, nothing subscribed", async () => {
    const answer = await call(ctx.sandbox.url, "/api/v2/subscriptions/subscribe.json", {
      authorization: auth(DEMO.hope.privateToken, "public"),
      body: { mobilenumber: "5550101234", list: "Hope Alerts" },
    });
    expect(answer.status).toBe(403);
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });

  it("the public token works for subscribe", async () => {
    expect((await subscribe(ctx.sandbox, { mobilenumber: "5550101234", list: "Hope Alerts" })).status).toBe(
      200,
    );
  });

  it("reports take an API token sent without a type (private or session); the public token → 403", async () => {
    const session = await login(ctx.sandbox);
    const withSession = await call(ctx.sandbox.url, "/api/v2/reports/transactions.json", {
      method: "GET",
      authorization: auth(session),
      body: {},
    });
    expect(withSession.status).toBe(200);
    const withPublic = await call(ctx.sandbox.url, "/api/v2/reports/transactions.json", {
      method: "GET",
      authorization: auth(DEMO.hope.publicToken),
      body: {},
    });
    expect(withPublic.status).toBe(403);
    const typedPublic = await call(ctx.sandbox.url, "/api/v2/reports/transactions.json", {
      method: "GET",
      authorization: auth(DEMO.hope.publicToken, "public"),
      body: {},
    });
    expect(typedPublic.status).toBe(403);
  });

  it("every login issues a distinct session token, each usable", async () => {
    const first = await login(ctx.sandbox);
    const second = await login(ctx.sandbox);
    expect(first).not.toBe(second);
    expect((await donate(ctx.sandbox, first, donation({ amount: "1" }))).status).toBe(200);
    expect((await donate(ctx.sandbox, second, donation({ amount: "2" }))).status).toBe(200);
    expect((await collected(ctx.sandbox)).map((row) => row.amount)).toEqual(["1.00", "2.00"]);
  });
});

describe("5 session token lifetime", () => {
  const ctx = useSandbox({ sessionTtlS: 1 });

  it("a session token expires after the TTL: 401 session_expired, nothing charged; a new login works", async () => {
    const session = await login(ctx.sandbox);
    expect((await donate(ctx.sandbox, session, donation({ amount: "3.00" }))).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const expired = await donate(ctx.sandbox, session, donation({ amount: "4.00" }));
    expect(expired.status).toBe(401);
    expect(expired.json.error.code).toBe("session_expired");
    const peers = await call(ctx.sandbox.url, "/api/v2/fundraisers", {
      method: "GET",
      authorization: auth(session, "session"),
    });
    expect(peers.status).toBe(401);

    const fresh = await login(ctx.sandbox);
    expect((await donate(ctx.sandbox, fresh, donation({ amount: "5.00" }))).status).toBe(200);
    expect((await collected(ctx.sandbox)).map((row) => row.amount)).toEqual(["3.00", "5.00"]);
  });
});
