/**
 * The gate for request bodies: JSON only (415), at most BODY_LIMIT_BYTES (413), valid UTF-8
 * and valid JSON (400 malformed_json), and no key that could reach an object's prototype
 * (`__proto__`, `constructor`, `prototype`: 400 validation_failed). The parsed body goes to
 * the route as c.get("body").
 */
import type { MiddlewareHandler } from "hono";
import { BodyTooLargeError, decodeUtf8, readBody } from "../../http/body";
import type { AppEnv } from "../context";
import { ProblemError } from "../problem";

/** The largest body the API accepts: a donation is well under 2 KB. */
export const BODY_LIMIT_BYTES = 16 * 1024;

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
// A cheap pre-check; only bodies that might hold such a key pay for the careful parse.
const MAYBE_FORBIDDEN = /"(?:__proto__|constructor|prototype)"/;

class ForbiddenKeyError extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/**
 * JSON.parse that refuses prototype keys at any depth. (JSON.parse itself makes "__proto__"
 * an own property, but code that later copies or merges the object may not be so careful.)
 *
 * @example
 * parseStrictJson('{"a":1}'); // {a: 1}
 * parseStrictJson('{"__proto__":{"x":1}}'); // throws ProblemError validation_failed
 */
export function parseStrictJson(text: string): unknown {
  try {
    if (!MAYBE_FORBIDDEN.test(text)) return JSON.parse(text);
    return JSON.parse(text, (key, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKeyError(key);
      return value;
    });
  } catch (error) {
    if (error instanceof ForbiddenKeyError) {
      throw new ProblemError("validation_failed", "The body holds a field that is not allowed.", {
        [error.key]: ["Unknown field."],
      });
    }
    throw new ProblemError("malformed_json", "The body is not valid JSON.");
  }
}

/** "application/json; charset=utf-8" → true; anything else (or another charset) → false. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type = "", ...params] = header.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return params.every((param) => !param.startsWith("charset=") || /^charset="?utf-8"?$/.test(param));
}

/**
 * @example
 * app.post("/v1/donations", jsonBody(), (c) => c.json(c.get("body")));
 */
export function jsonBody(limit = BODY_LIMIT_BYTES): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!isJsonContentType(c.req.header("content-type"))) {
      throw new ProblemError("unsupported_media_type", "Send the body as application/json (UTF-8).");
    }
    const bytes = await readBody(c, limit).catch((error: unknown) => {
      throw error instanceof BodyTooLargeError ? new ProblemError("payload_too_large", error.message) : error;
    });
    const text = decodeUtf8(bytes);
    if (text === null) throw new ProblemError("malformed_json", "The body is not valid UTF-8.");
    if (text.trim() === "") throw new ProblemError("malformed_json", "The body is empty.");
    c.set("body", parseStrictJson(text));
    await next();
  };
}
