/**
 * The headers every answer of the proxy carries, a route's own winning (the card frame's CSP,
 * the scripts' Cross-Origin-Resource-Policy): hono/secure-headers, plus the two it does not
 * decide as the proxy needs. X-Frame-Options is left off a page that may be framed (the card
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
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../context";
import { overTls } from "./over-tls";

const stock = secureHeaders({
  overwrite: false,
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] },
  crossOriginResourcePolicy: "same-site",
  strictTransportSecurity: "max-age=31536000",
  referrerPolicy: "no-referrer",
  xContentTypeOptions: true,
  // Decided below, per route.
  xFrameOptions: false,
  // Headers for top-level pages and old browsers the API has no use for.
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

/** A JSON answer's policy: nothing to load, never framed. */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";
const STOCK_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/;

/** A script or stylesheet sent (not an error about one). */
const isSubresource = (c: Context<AppEnv>) => c.get("subresource") && c.res.status < 400;

/**
 * @example
 * app.use("*", securityHeaders());
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  // After the stock headers, in the same step: neither touches the other's headers.
  return async (c, next) => {
    await stock(c, next);
    const headers = c.res.headers;
    if (c.res.status === 204) {
      for (const name of [
        "Content-Security-Policy",
        "Referrer-Policy",
        "X-Content-Type-Options",
        "Cross-Origin-Resource-Policy",
      ])
        headers.delete(name);
    } else if (isSubresource(c)) {
      headers.delete("Content-Security-Policy");
      headers.delete("Referrer-Policy");
      if (c.get("loadedWithCors")) headers.delete("Cross-Origin-Resource-Policy");
    } else {
      if (!c.get("framable") && !headers.has("X-Frame-Options")) headers.set("X-Frame-Options", "DENY");
      if (JSON_TYPE.test(headers.get("Content-Type") ?? "")) {
        headers.delete("Referrer-Policy");
        if (headers.get("Content-Security-Policy") === STOCK_CSP)
          headers.set("Content-Security-Policy", JSON_CSP);
        if (headers.has("Access-Control-Allow-Origin") && !headers.has("Access-Control-Allow-Credentials"))
          headers.delete("Cross-Origin-Resource-Policy");
      }
    }
    if (!overTls(c)) headers.delete("Strict-Transport-Security");
    if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
    // Vary tells a cache which request headers chose the answer: one no cache keeps, to a request
    // no cache answers from (a POST, a preflight), has no one to tell.
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && headers.get("Cache-Control") === "no-store")
      headers.delete("Vary");
  };
}
