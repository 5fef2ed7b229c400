/**
 * POST /v1/payment-tokens: card → {token, brand, last4}. Called by the card frame only. The
 * card number and CVV live in this request's memory and the upstream call, nowhere else.
 */
import { Hono } from "hono";
import {
  CHALLENGE_FIELD,
  FORM_TIME_FIELD,
  FormSignalsSchema,
  HONEYPOT_FIELD,
  PaymentTokenRequestSchema,
  type PaymentTokenResponse,
} from "../../contract/api";
import { cardBrand, cardDigits, parseExpiry } from "../../contract/card";
import { LAST4_PATTERN } from "../../contract/patterns";
import type { DefenceConfig } from "../config";
import type { AppEnv } from "../context";
import type { Defence } from "../defence/defence-mode";
import { jsonBody } from "../middleware/json-body";
import type { RateLimits } from "../middleware/rate-limit";
import { ProblemError } from "../problem";
import type { UpstreamClient } from "../upstream/client";
import { validate } from "../validate";

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

/**
 * What a filtered bot gets: the very answer of a declined donation (routes/donations.ts), so it
 * cannot tell a filter from a decline, and nothing was sent upstream.
 */
function looksDeclined(): ProblemError {
  return new ProblemError("card_declined", "The card was declined. No money was taken.");
}

export function paymentTokenRoutes(deps: {
  upstream: UpstreamClient;
  rateLimits: RateLimits;
  filters: DefenceConfig;
  defence: Defence;
}) {
  return new Hono<AppEnv>().post("/v1/payment-tokens", jsonBody(), async (c) => {
    const body: unknown = c.get("body");
    const {
      [HONEYPOT_FIELD]: honeypot,
      [FORM_TIME_FIELD]: formMs,
      [CHALLENGE_FIELD]: proof,
      ...rest
    } = isObject(body) ? body : {};
    const card = validate(PaymentTokenRequestSchema, isObject(body) ? rest : body);
    const signals = FormSignalsSchema.safeParse({ [HONEYPOT_FIELD]: honeypot, [FORM_TIME_FIELD]: formMs });
    const ip = c.get("clientIp");
    await deps.rateLimits.admit("paymentTokens", ip);
    // A filled honeypot, or a form sent sooner than a person could, is a bot: refused before the upstream.
    const filter = !signals.success
      ? "form_signals"
      : signals.data[HONEYPOT_FIELD]
        ? "honeypot"
        : (signals.data[FORM_TIME_FIELD] ?? 0) < deps.filters.minFormMs
          ? "too_fast"
          : null;
    if (filter) {
      c.set("logFields", { ...c.get("logFields"), filtered: filter });
      throw looksDeclined();
    }
    await deps.defence.admitTokenization(ip, typeof proof === "string" ? proof : undefined);
    const digits = cardDigits(card.card_number);
    await deps.defence.recordTokenization(digits);
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
    const answer: PaymentTokenResponse = {
      token: outcome.token,
      brand: outcome.brand ?? cardBrand(digits),
      last4: outcome.last4 && LAST4_PATTERN.test(outcome.last4) ? outcome.last4 : digits.slice(-4),
    };
    return c.json(answer, 201);
  });
}
