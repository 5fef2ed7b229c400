// The guards over real HTTP: origins, media type, size, rate limits, what declines bring (a challenge, a refused donor), and logs.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { PowChallenge } from "../../contract/api";
import { solvePow } from "../helpers/pow-solver";
import {
  CARDS,
  collected,
  donate,
  donationBody,
  formSession,
  logLines,
  postCard,
  tokenize,
  upstreamCalls,
  useStack,
  withCheckDigit,
  cardFields,
  DECLINES_ENV,
  declineThrice,
} from "./support";

const HOST_PAGE = "https://shelter.example";
const card = cardFields;

describe("origins (CORS)", () => {
  const ctx = useStack({ proxy: { allowedOrigins: [HOST_PAGE] } });

  it("an allowed origin donates and may read the answer", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token), randomUUID(), { Origin: HOST_PAGE });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("access-control-allow-origin")).toBe(HOST_PAGE);
    expect(await collected(ctx.sandbox)).toHaveLength(1);
  });

  it("a POST from another origin → 403 origin_not_allowed; nothing reaches the upstream", async () => {
    for (const path of ["/v1/payment-tokens", "/v1/donations", "/v1/subscriptions"]) {
      const reply = await ctx.api.post(path, card(), {
        headers: { Origin: "https://evil.example", "Idempotency-Key": randomUUID() },
      });
      expect(reply.status).toBe(403);
      expect(reply.json.code).toBe("origin_not_allowed");
      expect(reply.headers.get("access-control-allow-origin")).toBeNull();
    }
    expect(await ctx.sandbox.requests()).toEqual([]);
  });

  const preflight = (origin: string) =>
    fetch(`${ctx.proxy.url}/v1/donations`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,idempotency-key",
      },
    });

  it("a preflight from the allowed origin → 204; from another → 403", async () => {
    const allowed = await preflight(HOST_PAGE);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
    // No content: nothing to render, frame, sniff or keep from another site, and no script reads
    // a preflight's headers, so none of a document's headers and no request id (every donation's
    // preflight is bytes on a donor's phone); what a preflight is for stays.
    for (const header of [
      "content-security-policy",
      "x-frame-options",
      "referrer-policy",
      "x-content-type-options",
      "cross-origin-resource-policy",
      "x-request-id",
    ])
      expect(allowed.headers.get(header), header).toBeNull();
    expect(allowed.headers.get("access-control-max-age")).toBe("600");
    // A preflight is kept by the browser's preflight cache, by origin, never by an HTTP cache.
    expect(allowed.headers.get("vary")).toBeNull();
    expect((await preflight("https://evil.example")).status).toBe(403);
  });
});

describe("bodies and headers", () => {
  const ctx = useStack();

  it("every answer carries the security headers and a request id", async () => {
    const replies = [await ctx.api.get("/v1/health"), await ctx.api.get("/v1/nope")];
    expect(new Set(replies.map((reply) => reply.headers.get("x-request-id"))).size).toBe(2);
    for (const reply of replies) {
      expect(reply.headers.get("x-content-type-options")).toBe("nosniff");
      expect(reply.headers.get("x-frame-options")).toBe("DENY");
      expect(reply.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      // JSON is never a document that loads or links anything: no Referrer-Policy to obey.
      expect(reply.headers.get("referrer-policy")).toBeNull();
      expect(reply.headers.get("cache-control")).toBe("no-store");
      // 16 random bytes, base64url.
      expect(reply.headers.get("x-request-id")).toMatch(/^[\w-]{22}$/);
    }
  });

  it("a body that is not JSON → 415; over 16 KB → 413; neither reaches the upstream", async () => {
    const form = await fetch(`${ctx.proxy.url}/v1/payment-tokens`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "card_number=4242424242424242",
    });
    expect(form.status).toBe(415);
    expect((await form.json()).code).toBe("unsupported_media_type");
    const big = await ctx.api.post("/v1/subscriptions", { consent_text: "x".repeat(17 * 1024) });
    expect(big.status).toBe(413);
    expect(big.json.code).toBe("payload_too_large");
    expect(await ctx.sandbox.requests()).toEqual([]);
  });

  it("logs one JSON line per request: id, method, path, status, duration", async () => {
    const reply = await ctx.api.get("/v1/campaigns/71777/HOPE");
    const requestLines = logLines(ctx.proxy).filter((line) => line.msg === "request");
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      reqId: reply.headers.get("x-request-id"),
      method: "GET",
      path: "/v1/campaigns/71777/HOPE",
      status: 200,
      ip: "127.0.0.1",
    });
    expect(typeof requestLines[0]!.ms).toBe("number");
  });
});

describe("rate limits", () => {
  const ctx = useStack({
    proxy: {
      env: {
        // Buckets of 3, 2 and 1, each turn back after 3 s.
        GIVEKIT_RATE_PAYMENT_TOKENS: "3",
        GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN: "20",
        GIVEKIT_RATE_DONATIONS: "2",
        GIVEKIT_RATE_DONATIONS_PER_MIN: "20",
        GIVEKIT_RATE_SUBSCRIPTIONS: "1",
        GIVEKIT_RATE_SUBSCRIPTIONS_PER_MIN: "20",
      },
    },
  });

  it("payment tokens over the limit → 429 rate_limited with Retry-After; the upstream sees only those allowed", async () => {
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await postCard(ctx.api, card()));
    expect(replies.map((reply) => reply.status)).toEqual([201, 201, 201, 429, 429]);
    expect(replies[3]!.json.code).toBe("rate_limited");
    expect(Number(replies[3]!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/donations/create_payment_token")).toBe(3);
  });

  it("donations over the limit → 429; the refused key is free to use once the bucket has a turn again", async () => {
    const token = await tokenize(ctx.api);
    expect((await donate(ctx.api, donationBody(token, { amount: "10.00" }))).status).toBe(200);
    expect((await donate(ctx.api, donationBody(token, { amount: "11.00" }))).status).toBe(200);
    const key = randomUUID();
    const limited = await donate(ctx.api, donationBody(token, { amount: "12.00" }), key);
    expect(limited.status).toBe(429);
    expect(limited.json.code).toBe("rate_limited");
    expect((await collected(ctx.sandbox)).map((row) => row.amount).toSorted()).toEqual(["10.00", "11.00"]);
    await new Promise((resolve) =>
      setTimeout(resolve, Number(limited.headers.get("retry-after")) * 1000 + 100),
    );
    const later = await donate(ctx.api, donationBody(token, { amount: "12.00" }), key);
    expect(later.status).toBe(200);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
  });

  it("subscriptions over the limit → 429", async () => {
    const body = {
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      consent: true,
      consent_text: "I agree to receive recurring automated messages.",
    };
    expect((await ctx.api.post("/v1/subscriptions", body)).status).toBe(201);
    const limited = await ctx.api.post("/v1/subscriptions", body);
    expect(limited.status).toBe(429);
    expect(limited.json.code).toBe("rate_limited");
  });
});

describe("the status lookups' own bucket", () => {
  const ctx = useStack({
    proxy: {
      env: {
        GIVEKIT_RATE_DONATIONS: "2",
        GIVEKIT_RATE_DONATIONS_PER_MIN: "1",
        GIVEKIT_RATE_DONATION_STATUS: "3",
        GIVEKIT_RATE_DONATION_STATUS_PER_MIN: "1",
        // 999.99 never answers: the donation is Pending after this long.
        UPSTREAM_TIMEOUT_MS: "800",
        GIVEKIT_RECONCILE_INTERVAL_S: "0",
      },
    },
  });

  it("a Pending screen's polling never eats the donations' budget, and is limited on its own", async () => {
    const pending = await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "999.99" }));
    expect(pending.status).toBe(202);
    const reference = pending.json.donation.reference as string;
    const lookups = [];
    for (let i = 0; i < 4; i++) lookups.push(await ctx.api.get(`/v1/donations/${reference}`));
    expect(lookups.map((reply) => reply.status)).toEqual([200, 200, 200, 429]);
    expect(lookups[0]!.json).toEqual({ donation: { status: "Pending", reference } });
    expect(lookups[3]!.json.code).toBe("rate_limited");
    expect(Number(lookups[3]!.headers.get("retry-after"))).toBeGreaterThan(0);

    // Four lookups and one donation so far: the second donation is still within the budget of 2.
    const given = await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "25.00" }));
    expect(given.status).toBe(200);
    const over = await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "26.00" }));
    expect(over.status).toBe(429);
    expect(over.json.code).toBe("rate_limited");
    // The sandbox's own report: only the 25.00 was charged (999.99 never is, 26.00 never left).
    expect((await collected(ctx.sandbox)).map((row) => row.amount)).toEqual(["25.00"]);
  });
});

describe("declines: a challenge for the address, refusals for the donor and the card", () => {
  const ctx = useStack({
    proxy: { env: DECLINES_ENV },
  });
  const tokenizationsUpstream = async () =>
    (await ctx.sandbox.requests()).filter((request) => request.path.endsWith("create_payment_token")).length;

  it("after 3 declines an address is challenged, never blocked: a person who solves gives; a stockpiled token is made again", async () => {
    const stockpiled = await tokenize(ctx.api);
    await declineThrice(ctx.api);
    const before = (await ctx.sandbox.requests()).length;
    // The token minted before the evidence is refused before anything is sent: made again, it meets the challenge.
    const stale = await donate(ctx.api, donationBody(stockpiled));
    expect(stale.status).toBe(403);
    expect(stale.json.code).toBe("card_check_required");
    const asked = await postCard(ctx.api, card());
    expect(asked.status).toBe(403);
    expect(asked.json).toMatchObject({ code: "challenge_required", challenge: { provider: "pow" } });
    expect((await ctx.sandbox.requests()).length).toBe(before);
    // A person's frame solves it, and the gift goes through: charged once.
    const session = await formSession(ctx.api);
    const first = await postCard(ctx.api, { ...card(), form_session: session });
    const proof = await solvePow(first.json.challenge as PowChallenge);
    const minted = await postCard(ctx.api, { ...card(), form_session: session, challenge_token: proof });
    expect(minted.status).toBe(201);
    expect(await tokenizationsUpstream()).toBe(5);
    const gift = await donate(ctx.api, donationBody(String(minted.json.token)));
    expect(gift.status).toBe(200);
    expect(await collected(ctx.sandbox)).toHaveLength(1);
    // The same proof again is refused: single use.
    const replayed = await postCard(ctx.api, { ...card(), form_session: session, challenge_token: proof });
    expect(replayed.json.code).toBe("challenge_failed");
    // Opt-ins and status lookups are never refused for declines: they move no money.
    const optIn = await ctx.api.post("/v1/subscriptions", {
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      consent: true,
      consent_text: "I agree to receive recurring automated messages.",
    });
    expect(optIn.status).toBe(201);
    const lookup = await ctx.api.get(`/v1/donations/gk_${"0".repeat(20)}`);
    expect(lookup.status).toBe(404);
  });
});

describe("a donor's declines", () => {
  const ctx = useStack({ proxy: { env: { ...DECLINES_ENV, GIVEKIT_TRUST_PROXY: "true" } } });

  it("a donor whose gifts were declined 3 times is refused before anything is sent, from any address", async () => {
    const donor = { first_name: "Bo", last_name: "Tester", email: "bo.tester@example.org" };
    for (let i = 0; i < 3; i++) {
      const from = { "X-Forwarded-For": `198.51.100.${60 + i}` };
      const minted = await postCard(ctx.api, card(CARDS.declined), { headers: from });
      const token = String(minted.json.token);
      expect((await donate(ctx.api, donationBody(token, { donor }), randomUUID(), from)).status).toBe(402);
    }
    const other = { "X-Forwarded-For": "198.51.100.70" };
    const minted = await postCard(ctx.api, card(), { headers: other });
    const before = (await ctx.sandbox.requests()).length;
    const refused = await donate(
      ctx.api,
      donationBody(String(minted.json.token), { donor }),
      randomUUID(),
      other,
    );
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe("too_many_declines");
    expect((await ctx.sandbox.requests()).length).toBe(before);
    expect(await collected(ctx.sandbox)).toHaveLength(0);
  });
});

describe("a card's declines", () => {
  // The narrow refusal is under test, not the BIN's and campaign's breakers, which hold after three.
  const ctx = useStack({
    proxy: {
      env: {
        ...DECLINES_ENV,
        GIVEKIT_TRUST_PROXY: "true",
        GIVEKIT_BREAKER_BIN_DECLINES: "1000",
        GIVEKIT_BREAKER_CAMPAIGN_DECLINES: "1000",
      },
    },
  });
  const tokenizationsUpstream = async () =>
    (await ctx.sandbox.requests()).filter((request) => request.path.endsWith("create_payment_token")).length;

  it("a card declined 3 times is refused at its next tokenization, from any address, before anything is sent; another card still gives", async () => {
    for (let i = 0; i < 3; i++) {
      const from = { "X-Forwarded-For": `198.51.100.${80 + i}` };
      const minted = await postCard(ctx.api, card(CARDS.declined), { headers: from });
      expect(minted.status).toBe(201);
      const donor = {
        first_name: ["Cy", "Di", "Ed"][i]!,
        last_name: ["Ames", "Bo", "Cole"][i]!,
        email: `cy.${i}@example.org`,
      };
      const gift = await donate(
        ctx.api,
        donationBody(String(minted.json.token), { donor }),
        randomUUID(),
        from,
      );
      expect(gift.status).toBe(402);
    }
    expect(await tokenizationsUpstream()).toBe(3);
    const again = await postCard(ctx.api, card(CARDS.declined), {
      headers: { "X-Forwarded-For": "198.51.100.90" },
    });
    expect([again.status, again.json.code]).toEqual([402, "card_declined"]);
    expect(await tokenizationsUpstream()).toBe(3);
    const other = await postCard(ctx.api, card(), { headers: { "X-Forwarded-For": "198.51.100.91" } });
    expect(other.status).toBe(201);
    expect(await tokenizationsUpstream()).toBe(4);
  });
});

describe("one donor declined from many addresses", () => {
  // The signal is under test, not the BIN's breaker, which holds these cards' one BIN after three.
  const ctx = useStack({
    proxy: { env: { GIVEKIT_TRUST_PROXY: "loopback", GIVEKIT_BREAKER_BIN_DECLINES: "1000" } },
  });

  it("one name declined from 3 addresses, whatever its e-mails, puts the campaign in defence mode: every card challenged, nobody refused", async () => {
    for (let i = 0; i < 3; i++) {
      const from = { "X-Forwarded-For": `198.51.100.${80 + i}` };
      const donor = { first_name: "Sam", last_name: "Same", email: `sam.${i}@example.org` };
      const minted = await postCard(
        ctx.api,
        card(withCheckDigit(`4${String(8_000_000_000 + i * 1000)}`, "0002")),
        {
          headers: from,
        },
      );
      expect(minted.status).toBe(201);
      const gift = await donate(
        ctx.api,
        donationBody(String(minted.json.token), { donor }),
        randomUUID(),
        from,
      );
      expect(gift.status).toBe(402);
    }
    const on = logLines(ctx.proxy).filter((line) => line.event === "defence_mode_on");
    expect(on).toEqual([expect.objectContaining({ scope: "71777/HOPE", signal: "donor_spread", value: 3 })]);
    // Another donor, elsewhere: asked to solve, and gives once solved.
    const from = { "X-Forwarded-For": "198.51.100.99" };
    const session = await formSession(ctx.api, from);
    const named = { ...card(), shortcode: "71777", keyword: "HOPE", form_session: session };
    const asked = await postCard(ctx.api, named, { headers: from });
    expect(asked.json).toMatchObject({ code: "challenge_required", challenge: { provider: "pow" } });
    const proof = await solvePow(asked.json.challenge as PowChallenge);
    const minted = await postCard(ctx.api, { ...named, challenge_token: proof }, { headers: from });
    expect(minted.status).toBe(201);
    const gift = await donate(ctx.api, donationBody(String(minted.json.token)), randomUUID(), from);
    expect(gift.status).toBe(200);
    expect(await collected(ctx.sandbox)).toHaveLength(1);
  });
});

describe("one amount declined from many addresses", () => {
  // The signal is under test, not the BIN's breaker, which holds these cards' one BIN after three.
  const ctx = useStack({
    proxy: { env: { GIVEKIT_TRUST_PROXY: "loopback", GIVEKIT_BREAKER_BIN_DECLINES: "1000" } },
  });

  it("5 declines of one amount from 5 addresses, each its own donor and card, put the campaign in defence mode", async () => {
    for (let i = 0; i < 5; i++) {
      const from = { "X-Forwarded-For": `198.51.100.${110 + i}` };
      const donor = { first_name: `Pat${i}`, last_name: `Other${i}`, email: `pat.${i}@example.org` };
      const minted = await postCard(
        ctx.api,
        card(withCheckDigit(`4${String(9_000_000_000 + i * 1000)}`, "0002")),
        {
          headers: from,
        },
      );
      const gift = await donate(
        ctx.api,
        donationBody(String(minted.json.token), { donor, amount: "7.00" }),
        randomUUID(),
        from,
      );
      expect(gift.status).toBe(402);
    }
    const on = logLines(ctx.proxy).filter((line) => line.event === "defence_mode_on");
    expect(on).toEqual([expect.objectContaining({ scope: "71777/HOPE", signal: "amount_spread", value: 5 })]);
    const asked = await postCard(
      ctx.api,
      { ...card(), shortcode: "71777", keyword: "HOPE" },
      {
        headers: { "X-Forwarded-For": "198.51.100.120" },
      },
    );
    expect(asked.json).toMatchObject({ code: "challenge_required", challenge: { provider: "pow" } });
  });
});

describe("a form session bound to the page that opened the frame", () => {
  const ctx = useStack({ proxy: { allowedOrigins: [HOST_PAGE, "https://other.example"] } });

  it("minted only for an allowed page; its cards taken only for that page; nothing else reaches the upstream", async () => {
    const refused = await ctx.api.post("/v1/form-sessions", { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe("origin_not_allowed");
    const minted = await ctx.api.post("/v1/form-sessions", {
      origin: HOST_PAGE,
      shortcode: "71777",
      keyword: "HOPE",
    });
    expect(minted.status).toBe(201);
    const session = String(minted.json.form_session);
    const before = (await ctx.sandbox.requests()).length;
    const elsewhere = await postCard(ctx.api, {
      ...card(),
      form_session: session,
      origin: "https://other.example",
    });
    expect(elsewhere.status).toBe(402);
    expect(elsewhere.json.code).toBe("card_declined");
    expect((await ctx.sandbox.requests()).length).toBe(before);
    expect(logLines(ctx.proxy).some((line) => line.filtered === "form_session_foreign")).toBe(true);
    const own = await postCard(ctx.api, { ...card(), form_session: session, origin: HOST_PAGE });
    expect(own.status).toBe(201);
  });
});

describe("the client address behind a reverse proxy", () => {
  const limits = { GIVEKIT_RATE_SUBSCRIPTIONS: "1" };
  const optIn = {
    mobilenumber: "5550101234",
    list: "Hope Alerts",
    consent: true,
    consent_text: "I agree to receive recurring automated messages.",
  };

  describe("with GIVEKIT_TRUST_PROXY=true", () => {
    const ctx = useStack({ proxy: { env: { ...limits, GIVEKIT_TRUST_PROXY: "true" } } });
    const from = (ip: string) =>
      ctx.api.post("/v1/subscriptions", optIn, { headers: { "X-Forwarded-For": ip } });

    it("counts each forwarded client on its own, and logs its address", async () => {
      expect((await from("198.51.100.1")).status).toBe(201);
      expect((await from("198.51.100.2")).status).toBe(201);
      expect((await from("198.51.100.1")).status).toBe(429);
      const requests = logLines(ctx.proxy).filter((line) => line.msg === "request");
      expect(requests.map((line) => line.ip)).toEqual(["198.51.100.1", "198.51.100.2", "198.51.100.1"]);
    });
  });

  describe("with GIVEKIT_TRUST_PROXY=none", () => {
    const ctx = useStack({ proxy: { env: { ...limits, GIVEKIT_TRUST_PROXY: "none" } } });
    const from = (ip: string) =>
      ctx.api.post("/v1/subscriptions", optIn, { headers: { "X-Forwarded-For": ip } });

    it("ignores X-Forwarded-For: a forged header does not buy a fresh limit", async () => {
      expect((await from("198.51.100.1")).status).toBe(201);
      expect((await from("198.51.100.2")).status).toBe(429);
    });
  });
});
