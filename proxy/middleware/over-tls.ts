import type { Context } from "hono";
import type { AppEnv } from "../context";

/**
 * Whether the donor's connection is TLS: the request's own scheme, or what the reverse proxy in
 * front says it was. A client that claims https only makes what it is sent stricter (a Secure
 * cookie, an HSTS header it ignores over plain HTTP), so there is nothing to trust here.
 */
export function overTls(c: Context<AppEnv>): boolean {
  return new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
}
