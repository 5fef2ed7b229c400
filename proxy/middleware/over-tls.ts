import type { Context } from "hono";
import type { AppEnv } from "../context";

/**
 * Whether the donor's connection is TLS: the request's own scheme, or what the reverse proxy in
 * front says it was. A client that claims https only makes what it is sent stricter (a Secure
 * cookie, an HSTS header it ignores over plain HTTP), so there is nothing to trust here.
 */
export function overTls(c: Context<AppEnv>): boolean {
  // The URL is absolute, its scheme first: no need to parse it.
  return c.req.url.startsWith("https:") || c.req.header("x-forwarded-proto") === "https";
}
