// Nothing malformed reaches the upstream or costs money: random bodies by the thousand, and the named cases.
import { randomUUID } from "node:crypto";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import {
  DonationRequestSchema,
  PaymentTokenRequestSchema,
  SubscriptionRequestSchema,
} from "../../contract/api";
import { ProblemSchema } from "../../contract/error-schemas";
import { CONSENT_TEXT, CVV, EXPIRY, useStack, type Client, type Reply } from "./support";

const RUNS_PER_ENDPOINT = 1000;

const VALID = {
  "/v1/payment-tokens": { card_number: "4242424242424242", cvv: CVV, expiration_date: EXPIRY },
  "/v1/donations": {
    shortcode: "71777",
    keyword: "HOPE",
    amount: "25.00",
    cover_fee: true,
    donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org", phone: "5550101234" },
    credit_card_token: "tok_0123456789abcdef01234567",
  },
  "/v1/subscriptions": {
    mobilenumber: "5550101234",
    list: "Hope Alerts",
    consent: true,
    consent_text: CONSENT_TEXT,
  },
} as const;
type Endpoint = keyof typeof VALID;

const SCHEMAS: Record<Endpoint, z.ZodMiniType> = {
  "/v1/payment-tokens": PaymentTokenRequestSchema,
  "/v1/donations": DonationRequestSchema,
  "/v1/subscriptions": SubscriptionRequestSchema,
};

/** Text from all of Unicode: any code point (astral, controls, lone surrogates), or graphemes. */
const anyText = (constraints: { minLength?: number; maxLength: number }) =>
  fc.oneof(fc.string({ ...constraints, unit: "binary" }), fc.string({ ...constraints, unit: "grapheme" }));

/** Values of every JSON type, including strings that look almost right. */
const badValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2, stringUnit: "binary" }),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-5",
    "1e3",
    "25.001",
    "NaN",
    "  25",
    "null",
    "<script>",
    "4242424242424241",
    "x".repeat(600),
  ),
  anyText({ maxLength: 40 }),
);

function corrupt(base: Record<string, unknown>) {
  const fields = Object.keys(base);
  return fc.oneof(
    // One field replaced by something else.
    fc
      .record({ field: fc.constantFrom(...fields), value: badValue })
      .map(({ field, value }) => ({ ...base, [field]: value })),
    // One field removed.
    fc
      .constantFrom(...fields)
      .map((field) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== field))),
    // An unknown field.
    fc
      .record({ field: anyText({ minLength: 1, maxLength: 20 }), value: badValue })
      .filter(({ field }) => !fields.includes(field))
      .map(({ field, value }) => ({ ...base, [field]: value })),
    // The donor (or any nested object) replaced or given an unknown field.
    fc.record({ value: badValue }).map(({ value }) => ({ ...base, donor: value })),
    // Anything at all.
    fc.jsonValue({ maxDepth: 4, stringUnit: "binary" }),
  );
}

/** A raw body and headers: mostly JSON bodies that the schema refuses, sometimes not JSON at all. */
function badRequest(endpoint: Endpoint) {
  const schema = SCHEMAS[endpoint];
  const body = corrupt(VALID[endpoint]).filter((value) => !schema.safeParse(value).success);
  return fc.oneof(
    {
      weight: 8,
      arbitrary: body.map((value) => ({ raw: JSON.stringify(value), contentType: "application/json" })),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        raw: anyText({ maxLength: 200 }),
        contentType: fc.constantFrom(
          "application/json",
          "text/plain",
          "application/x-www-form-urlencoded",
          "",
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ key: fc.constantFrom("__proto__", "constructor", "prototype"), value: badValue })
        .map(({ key, value }) => ({
          raw: JSON.stringify(VALID[endpoint]).replace(
            /^\{/,
            `{${JSON.stringify(key)}:${JSON.stringify(value)},`,
          ),
          contentType: "application/json",
        })),
    },
  );
}

const donation = (fields: Record<string, unknown>) => ({ ...VALID["/v1/donations"], ...fields });

async function send(
  api: Client,
  endpoint: Endpoint,
  raw: string,
  headers: Record<string, string>,
): Promise<Reply> {
  return api.post(endpoint, undefined, { raw, headers: { "Idempotency-Key": randomUUID(), ...headers } });
}

function expectProblem(reply: Reply) {
  expect(reply.status).toBeGreaterThanOrEqual(400);
  expect(reply.status).toBeLessThan(500);
  expect(reply.headers.get("content-type")).toBe("application/problem+json");
  expect(ProblemSchema.safeParse(reply.json).success).toBe(true);
}

describe("bad input", () => {
  const ctx = useStack();
  const nothingSent = async () => expect(await ctx.sandbox.requests()).toEqual([]);

  for (const endpoint of Object.keys(VALID) as Endpoint[]) {
    it(`${RUNS_PER_ENDPOINT} random bad bodies to ${endpoint}: each a 4xx problem, none sent upstream`, async () => {
      let answered = 0;
      await fc.assert(
        fc.asyncProperty(badRequest(endpoint), async ({ raw, contentType }) => {
          const headers: Record<string, string> = contentType
            ? { "Content-Type": contentType }
            : { "Content-Type": "" };
          const reply = await send(ctx.api, endpoint, raw, headers);
          expectProblem(reply);
          answered++;
        }),
        { numRuns: RUNS_PER_ENDPOINT },
      );
      expect(answered).toBeGreaterThanOrEqual(RUNS_PER_ENDPOINT);
      expect(await ctx.sandbox.requests()).toEqual([]);
      expect((await ctx.api.get("/v1/health")).status).toBe(200);
    }, 120_000);
  }

  describe("named cases (none reaches the upstream)", () => {
    it.each(["0", "-5", "1e3", "25.001", "NaN", "  25", 25])(
      "amount %j → 400 naming amount",
      async (amount) => {
        const reply = await send(ctx.api, "/v1/donations", JSON.stringify(donation({ amount })), {});
        expectProblem(reply);
        expect(reply.json.code).toBe("validation_failed");
        expect(reply.json.errors).toHaveProperty("amount");
        await nothingSent();
      },
    );

    it.each([["555010123"], ["555010123456"]])(
      "a donor phone of %s → 400 naming donor.phone",
      async (phone) => {
        const body = donation({ donor: { ...VALID["/v1/donations"].donor, phone } });
        const reply = await send(ctx.api, "/v1/donations", JSON.stringify(body), {});
        expect(reply.status).toBe(400);
        expect(reply.json.errors).toHaveProperty("donor.phone");
        await nothingSent();
      },
    );

    it.each([["555010123"], ["555010123456"]])(
      "a mobile number of %s → 400 naming mobilenumber",
      async (mobilenumber) => {
        const body = { ...VALID["/v1/subscriptions"], mobilenumber };
        const reply = await send(ctx.api, "/v1/subscriptions", JSON.stringify(body), {});
        expect(reply.status).toBe(400);
        expect(reply.json.errors).toHaveProperty("mobilenumber");
        await nothingSent();
      },
    );

    it.each([
      ['{"__proto__":{"isAdmin":true},', "__proto__"],
      ['{"constructor":{"prototype":{"isAdmin":true}},', "prototype"],
      ['"donor":{"__proto__":{"isAdmin":true},', "__proto__"],
      ['"donor":{"constructor":{"name":"x"},', "constructor"],
    ])("prototype keys (%s…) → 400, and no object is polluted", async (insert, key) => {
      const text = JSON.stringify(VALID["/v1/donations"]);
      const raw = insert.startsWith("{") ? text.replace(/^\{/, insert) : text.replace('"donor":{', insert);
      const reply = await send(ctx.api, "/v1/donations", raw, {});
      expect(reply.status).toBe(400);
      expect(reply.json.errors).toHaveProperty(key);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      await nothingSent();
    });

    it("unknown fields → 400 naming each", async () => {
      const reply = await send(
        ctx.api,
        "/v1/donations",
        JSON.stringify(donation({ fee_rate: 0, debug: true })),
        {},
      );
      expect(reply.status).toBe(400);
      expect(reply.json.errors).toMatchObject({ fee_rate: ["Unknown field."], debug: ["Unknown field."] });
      await nothingSent();
    });

    it("a wrong content type → 415", async () => {
      const reply = await send(ctx.api, "/v1/donations", JSON.stringify(donation({})), {
        "Content-Type": "text/plain",
      });
      expect(reply.status).toBe(415);
      expect(reply.json.code).toBe("unsupported_media_type");
      await nothingSent();
    });

    it("a 17 KB body → 413", async () => {
      const reply = await send(
        ctx.api,
        "/v1/donations",
        JSON.stringify(donation({ memo: "x".repeat(17 * 1024) })),
        {},
      );
      expect(reply.status).toBe(413);
      expect(reply.json.code).toBe("payload_too_large");
      await nothingSent();
    });

    it("a 300-character idempotency key → 400", async () => {
      const reply = await send(ctx.api, "/v1/donations", JSON.stringify(donation({})), {
        "Idempotency-Key": "k".repeat(300),
      });
      expect(reply.status).toBe(400);
      expect(reply.json.code).toBe("idempotency_key_invalid");
      await nothingSent();
    });
  });
});
