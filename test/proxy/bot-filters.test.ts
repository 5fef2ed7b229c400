// The cheap bot filters on POST /v1/payment-tokens: the frame's honeypot and the least time the
// form must have been open. A filtered bot gets a decline's answer and nothing reaches the upstream.
import { describe, expect, it } from "vitest";
import {
  CARDS,
  CVV,
  DONATE_PATH,
  EXPIRY,
  donate,
  donationBody,
  logLines,
  tokenize,
  upstreamCalls,
  useStack,
} from "./support";

const TOKEN_PATH = "/api/v2/donations/create_payment_token";
const MIN_FORM_MS = 1500;

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

describe("cheap bot filters on POST /v1/payment-tokens", () => {
  const ctx = useStack({ proxy: { env: { GIVEKIT_MIN_FORM_MS: String(MIN_FORM_MS) } } });

  it("lets a person through: honeypot empty, the form open long enough", async () => {
    const reply = await ctx.api.post("/v1/payment-tokens", card({ website: "", form_ms: 9000 }));
    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject({ brand: "visa", last4: "4242" });
    expect(await upstreamCalls(ctx.sandbox, TOKEN_PATH)).toBe(1);
  });

  it.each([
    ["a filled honeypot", { website: "https://cheap-pills.example", form_ms: 9000 }, "honeypot"],
    ["a form sent too soon", { website: "", form_ms: MIN_FORM_MS - 1 }, "too_fast"],
    ["no form time at all (a direct POST)", {}, "too_fast"],
    ["a form time that is not a count", { form_ms: "soon" }, "form_signals"],
  ])("%s → the answer of a declined card; nothing sent upstream", async (_name, fields, filter) => {
    // The answer a real decline gets, to compare with.
    const declined = await donate(ctx.api, donationBody(await tokenize(ctx.api, CARDS.declined)));
    expect(declined.status).toBe(402);
    const tokenCalls = await upstreamCalls(ctx.sandbox, TOKEN_PATH);
    const donateCalls = await upstreamCalls(ctx.sandbox, DONATE_PATH);

    const reply = await ctx.api.post("/v1/payment-tokens", card(fields));
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

  it("still names a bad card field first (a filter is no way to learn the card's checks)", async () => {
    const reply = await ctx.api.post(
      "/v1/payment-tokens",
      card({ card_number: "4242424242424241", form_ms: 9000 }),
    );
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toHaveProperty("card_number");
  });
});
