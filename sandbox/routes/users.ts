/** POST /api/v2/users/login_with_auth_token: a private token in, a session token out. */
import { Hono } from "hono";
import * as z from "zod/mini";
import { requireToken } from "../auth";
import { type SandboxEnv, type SandboxRuntime, readJsonBody, validate } from "../http";

// The request shape is not published: the sandbox takes no body, or an empty object.
const LoginRequestSchema = z.strictObject({});

export function userRoutes(runtime: SandboxRuntime): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.post("/api/v2/users/login_with_auth_token", requireToken(runtime, "private"), async (c) => {
    validate(LoginRequestSchema, (await readJsonBody(c)) ?? {});
    const account = c.get("account");
    const now = runtime.now().getTime();
    const expiresAt = now + runtime.sessionTtlS * 1000;
    const token = runtime.ledger.createSession(account.id, expiresAt);
    return c.json({
      user: {
        session_token: token,
        account_name: account.name,
        expires_in: runtime.sessionTtlS,
        expires_at: new Date(expiresAt).toISOString(),
      },
    });
  });
  return app;
}
