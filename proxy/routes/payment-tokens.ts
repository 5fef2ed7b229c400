/**
 * POST /v1/payment-tokens: card → {token, brand, last4}, called by the card frame only; a
 * tokenization's checks, its upstream call and its answer are proxy/tokens/.
 */
import { Hono } from "hono";
import type { AppEnv } from "../context";
import { jsonBody } from "../middleware/json-body";
import { runTokenization, type TokenizeDeps } from "../tokens/tokenize";

export function paymentTokenRoutes(deps: TokenizeDeps) {
  return new Hono<AppEnv>().post("/v1/payment-tokens", jsonBody(), async (c) => {
    const answer = await runTokenization(deps, {
      body: c.get("body"),
      ip: c.get("clientIp"),
      log: (fields) => c.set("logFields", { ...c.get("logFields"), ...fields }),
    });
    return c.json(answer, 201);
  });
}
