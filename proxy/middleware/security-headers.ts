/**
 * The headers every answer of the proxy carries, a route's own winning (the card frame's CSP,
 * the scripts' Cross-Origin-Resource-Policy): those hono/secure-headers would set, as the proxy
 * needs them. X-Frame-Options is left off a page that may be framed (the card
 * frame says who may frame it in its CSP), and answers are not cached unless a route says so.
 * A script or a stylesheet (a route sets `subresource`) keeps only what applies to it
 * (nosniff, HSTS, its own CORS and CORP): a browser reads CSP, Referrer-Policy and
 * X-Frame-Options from a document, never from a script, and each costs a donor's phone bytes.
 * One loaded only in CORS mode (`loadedWithCors`) goes without CORP too. An answer with no content
 * (204: a preflight, a step beacon) has nothing to render, frame, sniff or keep from another
 * site, and goes without those five: the card frame sends a beacon at each step of a donation.
 * An answer in JSON is never a document that loads or links anything, so it goes without
 * Referrer-Policy and CSP's base-uri (its CSP keeps default-src and frame-ancestors 'none'); one
 * that names its reader (Access-Control-Allow-Origin, no credentials) is read by fetch() in CORS
 * mode, where a browser never checks Cross-Origin-Resource-Policy (Fetch, "cross-origin resource
 * policy check": no-cors requests only), so it goes without CORP.
 * HSTS goes only over TLS (RFC 6797 7.2: a host must not send it over plain HTTP).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { overTls } from "./over-tls";

/** A document's policy: nothing to load, never framed, no <base>. */
const PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";
/** A JSON answer's policy: nothing to load, never framed. */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/;
const HSTS = "max-age=31536000";

/** A script or stylesheet sent (not an error about one). */
const isSubresource = (c: Context<AppEnv>) => c.get("subresource") && c.res.status < 400;

/**
 * Each header is decided once, for the kind of answer it is, and set only when the route has not
 * set its own: every request pays for these, so no header is set only to be taken off again (as
 * hono/secure-headers' defaults were).
 *
 * @example
 * app.use("*", securityHeaders());
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    const add = (name: string, value: string) => {
      if (!headers.has(name)) headers.set(name, value);
    };
    if (c.res.status !== 204) {
      add("X-Content-Type-Options", "nosniff");
      if (isSubresource(c)) {
        if (!c.get("loadedWithCors")) add("Cross-Origin-Resource-Policy", "same-site");
      } else {
        if (!c.get("framable")) add("X-Frame-Options", "DENY");
        if (JSON_TYPE.test(headers.get("Content-Type") ?? "")) {
          add("Content-Security-Policy", JSON_CSP);
          // Read by fetch() in CORS mode, where CORP is never checked.
          if (!headers.has("Access-Control-Allow-Origin") || headers.has("Access-Control-Allow-Credentials"))
            add("Cross-Origin-Resource-Policy", "same-site");
        } else {
          add("Content-Security-Policy", PAGE_CSP);
          add("Referrer-Policy", "no-referrer");
          add("Cross-Origin-Resource-Policy", "same-site");
        }
      }
    }
    if (overTls(c)) add("Strict-Transport-Security", HSTS);
    const cacheControl = headers.get("Cache-Control");
    if (cacheControl === null) headers.set("Cache-Control", "no-store");
    // Vary tells a cache which request headers chose the answer: one no cache keeps, to a request
    // no cache answers from (a POST, a preflight), has no one to tell.
    if ((cacheControl ?? "no-store") === "no-store" && c.req.method !== "GET" && c.req.method !== "HEAD")
      headers.delete("Vary");
  };
}
