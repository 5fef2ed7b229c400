// The cheap bot filters on POST /v1/payment-tokens: the frame's honeypot and its form session,
// from which the proxy times the form (a page cannot claim a time). A filtered bot gets a
// decline's answer and nothing reaches the upstream.
import { describe, expect, it } from "vitest";
import type { PowChallenge } from "../../contract/api";
import { createFormSessions } from "../../proxy/defence/form-session";
import { solvePow } from "../helpers/pow-solver";
import {
  CARDS,
  CVV,
  DONATE_PATH,
  EXPIRY,
  donate,
  donationBody,
  formSession,
  logLines,
  postCard,
  upstreamCalls,
  useStack,
  withCheckDigit,
} from "./support";

const TOKEN_PATH = "/api/v2/donations/create_payment_token";
const MIN_FORM_MS = 1500;
const SECRET = "bot-filters-secret-".padEnd(40, "x");

const card = (fields: Record<string, unknown>) => ({
  card_number: CARDS.ok,
  cvv: CVV,
  expiration_date: EXPIRY,
  ...fields,
});

/** A problem's body without its per-request parts. */
const generic = (json: Record<string, unknown>) => {
  const { instance: _instance, request_id: _requestId, ...rest } = json;
  return rest;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A session signed with the proxy's key `ageMs` ago, for `ttlS`: how an old or expired one looks. */
const signedAgo = async (ageMs: number, ttlS: number) =>
  (
    await createFormSessions(
      {
        minFormMs: 0,
        formSessionTtlS: ttlS,
        formSessionTokenizations: 1,
        formSessionCards: 1,
        formSessionBulk: 20,
      },
      { secret: SECRET, counters: null, now: () => Date.now() - ageMs },
    ).issue()
  ).form_session;

describe("cheap bot filters on POST /v1/payment-tokens", () => {
  const ctx = useStack({
    proxy: { env: { GIVEKIT_MIN_FORM_MS: String(MIN_FORM_MS), GIVEKIT_SIGNING_SECRET: SECRET } },
  });

  /** A person: a session asked for as the frame opened, the card sent after they typed it. */
  async function personSession(): Promise<string> {
    const session = await formSession(ctx.api);
    await sleep(MIN_FORM_MS + 100);
    return session;
  }

  it("lets a person through: honeypot empty, the form open long enough", async () => {
    const reply = await postCard(ctx.api, card({ website: "", form_session: await personSession() }));
    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject({ brand: "visa", last4: "4242" });
    expect(await upstreamCalls(ctx.sandbox, TOKEN_PATH)).toBe(1);
  });

  it("a session renewed keeps its start: a frame left open is not timed from the renewal", async () => {
    const first = await formSession(ctx.api);
    await sleep(MIN_FORM_MS + 100);
    const renewed = await ctx.api.post("/v1/form-sessions", { renew: first });
    expect(renewed.status).toBe(201);
    expect(renewed.json.form_session).not.toBe(first);
    const reply = await postCard(ctx.api, card({ website: "", form_session: renewed.json.form_session }));
    expect(reply.status).toBe(201);
  });

  it.each([
    [
      "a filled honeypot",
      async () => ({ website: "https://cheap-pills.example", form_session: await signedAgo(60_000, 3600) }),
      "honeypot",
    ],
    [
      "a form sent too soon (a session just asked for)",
      async () => ({ website: "", form_session: await formSession(ctx.api) }),
      "too_fast",
    ],
    ["no form session at all (a direct POST)", async () => ({ website: "" }), "form_session_missing"],
    [
      "a forged session",
      async () => ({
        website: "",
        form_session: (await signedAgo(60_000, 3600)).replace(/.$/, (c: string) => (c === "A" ? "B" : "A")),
      }),
      "form_session_forged",
    ],
    [
      "a session signed with another key",
      async () => ({ website: "", form_session: "kq1x2y3.kq9x2y3.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA" }),
      "form_session_forged",
    ],
    [
      "an expired session",
      async () => ({ website: "", form_session: await signedAgo(2 * 3600_000, 3600) }),
      "form_session_expired",
    ],
    ["a session that is not text", async () => ({ form_session: 5 }), "form_signals"],
  ])("%s → the answer of a declined card; nothing sent upstream", async (_name, fields, filter) => {
    // The answer a real decline gets, to compare with.
    const token = await postCard(
      ctx.api,
      card({ card_number: CARDS.declined, form_session: await signedAgo(60_000, 3600) }),
    );
    const declined = await donate(ctx.api, donationBody(token.json.token));
    expect(declined.status).toBe(402);
    const tokenCalls = await upstreamCalls(ctx.sandbox, TOKEN_PATH);
    const donateCalls = await upstreamCalls(ctx.sandbox, DONATE_PATH);

    const reply = await ctx.api.post("/v1/payment-tokens", card(await fields()));
    expect(reply.status).toBe(declined.status);
    expect(reply.headers.get("content-type")).toBe(declined.headers.get("content-type"));
    expect(generic(reply.json)).toEqual(generic(declined.json));
    expect(await upstreamCalls(ctx.sandbox, TOKEN_PATH)).toBe(tokenCalls);
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(donateCalls);
    // The log says which filter, for the operator; never the card.
    const line = logLines(ctx.proxy).find((entry) => entry.filtered);
    expect(line).toMatchObject({ filtered: filter });
    expect(ctx.proxy.logs.join("\n")).not.toContain(CARDS.ok);
  });

  it("one session tries at most 3 cards and makes at most 5 tokenizations: then it is refused like a decline", async () => {
    const session = await signedAgo(60_000, 3600);
    const cards = [CARDS.ok, withCheckDigit("555555555555444"), withCheckDigit("601111111111111")];
    const statuses = [];
    // A donor who mistypes: the same cards again are no churn.
    for (const number of [...cards, cards[0]!])
      statuses.push((await postCard(ctx.api, card({ card_number: number, form_session: session }))).status);
    expect(statuses).toEqual([201, 201, 201, 201]);
    const fourthCard = await postCard(
      ctx.api,
      card({ card_number: withCheckDigit("437512345678901"), form_session: session }),
    );
    expect(fourthCard.json.code).toBe("card_declined");
    expect(
      logLines(ctx.proxy)
        .filter((entry) => entry.filtered)
        .at(-1),
    ).toMatchObject({ filtered: "card_churn" });
    const sixth = await postCard(ctx.api, card({ card_number: cards[1], form_session: session }));
    expect(sixth.json.code).toBe("card_declined");
    expect(
      logLines(ctx.proxy)
        .filter((entry) => entry.filtered)
        .at(-1),
    ).toMatchObject({ filtered: "form_session_spent" });
    expect(await upstreamCalls(ctx.sandbox, TOKEN_PATH)).toBe(4);
  });

  it("a form session is asked for with {} or the session to renew; anything else is a 400 naming the field", async () => {
    const unknown = await ctx.api.post("/v1/form-sessions", { minutes: 90 });
    expect([unknown.status, unknown.json.code]).toEqual([400, "validation_failed"]);
    expect(unknown.json.errors).toHaveProperty("minutes");
    const notText = await ctx.api.post("/v1/form-sessions", { renew: 7 });
    expect(notText.json.errors).toHaveProperty("renew");
    // A forged session to renew gets a new one, timed from now.
    const forged = await ctx.api.post("/v1/form-sessions", {
      renew: "kq1x2y3.kq9x2y3.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA",
    });
    expect(forged.status).toBe(201);
    const early = await ctx.api.post(
      "/v1/payment-tokens",
      card({ website: "", form_session: forged.json.form_session }),
    );
    expect(early.json.code).toBe("card_declined");
  });

  it("a form time claimed by the page is no field of the API: 400 naming it, nothing sent upstream", async () => {
    const reply = await postCard(ctx.api, card({ website: "", form_ms: 90_000 }));
    expect([reply.status, reply.json.code]).toEqual([400, "validation_failed"]);
    expect(reply.json.errors).toHaveProperty("form_ms");
    expect(await upstreamCalls(ctx.sandbox, TOKEN_PATH)).toBe(0);
  });

  it("still names a bad card field first (a filter is no way to learn the card's checks)", async () => {
    const reply = await postCard(ctx.api, card({ card_number: "4242424242424241" }));
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toHaveProperty("card_number");
  });
});

describe("a donor who waits or proves keeps their form session", () => {
  // The second session a client asks for is a bulk one: each of its cards is asked to prove.
  const ctx = useStack({
    proxy: { env: { GIVEKIT_MIN_FORM_MS: String(MIN_FORM_MS), GIVEKIT_FORM_SESSION_BULK: "1" } },
  });

  it("a card asked for a challenge more times than the session's tokenizations is still tokenized once proven", async () => {
    await formSession(ctx.api);
    const session = await formSession(ctx.api);
    await sleep(MIN_FORM_MS + 100);
    // The frame sent the card unproven six times (a slow solver, a page reloaded): more than the
    // session's 5 tokenizations, none of which reached the upstream.
    let asked: Record<string, unknown> = {};
    for (let round = 0; round < 6; round++) {
      const reply = await postCard(ctx.api, card({ website: "", form_session: session }));
      expect([reply.status, reply.json.code]).toEqual([403, "challenge_required"]);
      asked = reply.json;
    }
    expect(await upstreamCalls(ctx.sandbox, TOKEN_PATH)).toBe(0);
    const proof = await solvePow(asked.challenge as PowChallenge);
    const proven = await postCard(
      ctx.api,
      card({ website: "", form_session: session, challenge_token: proof }),
    );
    expect(proven.status).toBe(201);
    expect(await upstreamCalls(ctx.sandbox, TOKEN_PATH)).toBe(1);
  });
});
