/**
 * POST /v1/form-sessions: the card frame's form session (proxy/defence/form-session.ts), asked
 * for when the frame opens and renewed while it stays open (`{"renew": "<its session>"}`).
 */
import { Hono } from "hono";
import { FormSessionRequestSchema } from "../../contract/api";
import type { AppEnv } from "../context";
import type { FormSessions } from "../defence/form-session";
import { jsonBody } from "../middleware/json-body";
import type { RateLimits } from "../middleware/rate-limit";
import { validate } from "../validate";

export function formSessionRoutes(deps: { formSessions: FormSessions; rateLimits: RateLimits }) {
  return new Hono<AppEnv>().post("/v1/form-sessions", jsonBody(), async (c) => {
    const { renew } = validate(FormSessionRequestSchema, c.get("body"));
    await deps.rateLimits.consume("formSessions", c.get("clientIp"));
    return c.json(deps.formSessions.issue(renew), 201, { "Cache-Control": "no-store" });
  });
}
