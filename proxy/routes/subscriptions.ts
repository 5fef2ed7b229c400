/**
 * POST /v1/subscriptions: an SMS opt-in, whose whole life is proxy/optins/ (explicit consent, a
 * consent record kept before the number is sent, the upstream with the PUBLIC token).
 */
import { Hono } from "hono";
import { consentSource } from "../consent";
import type { AppEnv } from "../context";
import { jsonBody } from "../middleware/json-body";
import { runOptIn, type OptInDeps } from "../optins/optin";

export function subscriptionRoutes(deps: OptInDeps) {
  return new Hono<AppEnv>().post("/v1/subscriptions", jsonBody(), async (c) => {
    const answer = await runOptIn(deps, {
      body: c.get("body"),
      ip: c.get("clientIp"),
      consent: consentSource(c),
      log: (fields) => c.set("logFields", { ...c.get("logFields"), ...fields }),
    });
    return c.json(answer, 201);
  });
}
