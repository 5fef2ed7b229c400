/**
 * POST /v1/payment-tokens: card → {token, brand, last4}. Called by the card frame only. The
 * card number and CVV live in this request's memory and the upstream call, nowhere else.
 */
import { Hono } from "hono";
import { PaymentTokenRequestSchema, type PaymentTokenResponse } from "../../contract/api";
import { cardBrand, cardDigits, parseExpiry } from "../../contract/card";
import { LAST4_PATTERN } from "../../contract/patterns";
import type { AppEnv } from "../context";
import { jsonBody } from "../middleware/json-body";
import type { RateLimits } from "../middleware/rate-limit";
import { ProblemError } from "../problem";
import type { UpstreamClient } from "../upstream/client";
import { validate } from "../validate";

export function paymentTokenRoutes(deps: { upstream: UpstreamClient; rateLimits: RateLimits }) {
  return new Hono<AppEnv>().post("/v1/payment-tokens", jsonBody(), async (c) => {
    const card = validate(PaymentTokenRequestSchema, c.get("body"));
    const ip = c.get("clientIp");
    await deps.rateLimits.admit("paymentTokens", ip);
    const digits = cardDigits(card.card_number);
    // The schema accepted the date, so it parses; the upstream takes MM/YYYY.
    const expiry = parseExpiry(card.expiration_date)!;
    const outcome = await deps.upstream.createPaymentToken({
      card_number: digits,
      cvv: card.cvv,
      expiration_date: `${String(expiry.month).padStart(2, "0")}/${expiry.year}`,
    });
    if (outcome.kind === "refused") {
      c.set("logFields", { ...c.get("logFields"), upstreamStatus: outcome.httpStatus });
      throw new ProblemError("validation_failed", "The card was not accepted. Check its details.", {
        card_number: ["The card was not accepted."],
      });
    }
    const body: PaymentTokenResponse = {
      token: outcome.token,
      brand: outcome.brand ?? cardBrand(digits),
      last4: outcome.last4 && LAST4_PATTERN.test(outcome.last4) ? outcome.last4 : digits.slice(-4),
    };
    return c.json(body, 201);
  });
}
