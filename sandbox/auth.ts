/**
 * The Authorization rules of the interface's section 5:
 * `Authorization: Token token="<TOKEN>", type="session" | "public" | "private"`.
 * donate and the other session operations take a session token, subscribe a public token,
 * login a private token, and reports an API token sent without a type.
 */
import { createMiddleware } from "hono/factory";
import { parseAuthorization } from "../contract/upstream";
import { ApiError, type SandboxEnv, type SandboxRuntime } from "./http";
import type { Account } from "./ledger";

/** What an operation accepts: one token type, or "report" (an API token with no type). */
export type Requirement = "session" | "public" | "private" | "report";

/** The kinds of token a value actually is, whatever type the caller claimed. */
function kindsOf(runtime: SandboxRuntime, token: string): string[] {
  const kinds: string[] = [];
  if (runtime.ledger.accountByPrivateToken(token)) kinds.push("private");
  if (runtime.ledger.accountByPublicToken(token)) kinds.push("public");
  if (runtime.ledger.session(token)) kinds.push("session");
  return kinds;
}

function sessionAccount(runtime: SandboxRuntime, token: string): Account {
  const session = runtime.ledger.session(token);
  if (!session) throw unknownToken(runtime, token, "session");
  if (session.expiresAt <= runtime.now().getTime()) {
    throw new ApiError(401, "session_expired", "The session token has expired; log in again.");
  }
  return session.account;
}

function unknownToken(runtime: SandboxRuntime, token: string, wanted: string): ApiError {
  const actual = kindsOf(runtime, token);
  if (actual.length > 0) {
    return new ApiError(
      403,
      "wrong_token_type",
      `This operation takes a ${wanted} token; the token sent is a ${actual.join("/")} token.`,
    );
  }
  return new ApiError(401, "invalid_token", `The ${wanted} token is not known.`);
}

/** Resolves the account a request's Authorization header stands for, or throws a 401/403 ApiError. */
export function authenticate(
  runtime: SandboxRuntime,
  header: string | undefined,
  need: Requirement,
): Account {
  const example = need === "report" ? 'Token token="…"' : `Token token="…", type="${need}"`;
  if (!header) throw new ApiError(401, "missing_authorization", `Send the header Authorization: ${example}.`);
  const parsed = parseAuthorization(header);
  if (!parsed) {
    throw new ApiError(401, "malformed_authorization", `The Authorization header must read ${example}.`);
  }
  const { token, type } = parsed;

  if (need === "report") {
    if (type === undefined) {
      const account = runtime.ledger.accountByPrivateToken(token);
      if (account) return account;
      if (runtime.ledger.session(token)) return sessionAccount(runtime, token);
      throw unknownToken(runtime, token, "private or session");
    }
    if (type !== "private" && type !== "session") {
      throw new ApiError(
        403,
        "wrong_token_type",
        `Reports take a private or session token, not type="${type}".`,
      );
    }
  } else if (type !== need) {
    throw new ApiError(
      403,
      "wrong_token_type",
      type === undefined
        ? `This operation takes a ${need} token: send type="${need}".`
        : `This operation takes a ${need} token, not type="${type}".`,
    );
  }

  const kind = need === "report" ? type! : need;
  if (kind === "session") return sessionAccount(runtime, token);
  const account =
    kind === "private"
      ? runtime.ledger.accountByPrivateToken(token)
      : runtime.ledger.accountByPublicToken(token);
  if (!account) throw unknownToken(runtime, token, kind);
  return account;
}

/** Middleware: authenticates and puts the account on the context (c.get("account")). */
export function requireToken(runtime: SandboxRuntime, need: Requirement) {
  return createMiddleware<SandboxEnv>(async (c, next) => {
    c.set("account", authenticate(runtime, c.req.header("authorization"), need));
    await next();
  });
}
