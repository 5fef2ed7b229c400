// POST /v1/payment-tokens: card in, token out; a bad card never leaves the proxy.
import { describe, expect, it } from "vitest";
import { PaymentTokenResponseSchema } from "../../contract/api";
import { CVV, EXPIRY, postCard, upstreamCalls, useStack } from "./support";

const TOKEN_PATH = "/api/v2/donations/create_payment_token";

describe("POST /v1/payment-tokens", () => {
  const ctx = useStack();

  it("→ 201 {token, brand, last4}", async () => {
    const reply = await postCard(ctx.api, {
      card_number: "4242 4242 4242 4242",
      cvv: CVV,
      expiration_date: EXPIRY,
    });
    expect(reply.status).toBe(201);
    expect(PaymentTokenResponseSchema.safeParse(reply.json).success).toBe(true);
    expect(reply.json).toMatchObject({ brand: "visa", last4: "4242" });
    expect(Object.keys(reply.json).toSorted()).toEqual(["brand", "last4", "token"]);
  });

  it("takes a two-digit year and sends MM/YYYY upstream", async () => {
    const reply = await postCard(ctx.api, {
      card_number: "5555555555554444",
      cvv: CVV,
      expiration_date: "4/31",
    });
    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject({ brand: "mastercard", last4: "4444" });
  });

  it.each([
    ["a number failing Luhn", { card_number: "4242424242424241" }, "card_number"],
    ["an expired card", { expiration_date: "01/2020" }, "expiration_date"],
    ["a 3-digit CVV on an Amex", { card_number: "378282246310005", cvv: "123" }, "cvv"],
    ["a missing CVV", { cvv: undefined }, "cvv"],
    ["an unknown field", { name: "Ana" }, "name"],
  ])("%s → 400 naming the field; nothing sent upstream", async (_name, fields, field) => {
    const reply = await postCard(ctx.api, {
      card_number: "4242424242424242",
      cvv: CVV,
      expiration_date: EXPIRY,
      ...fields,
    });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe("validation_failed");
    expect(reply.json.errors).toHaveProperty(field);
    expect(await upstreamCalls(ctx.sandbox, TOKEN_PATH)).toBe(0);
  });
});
