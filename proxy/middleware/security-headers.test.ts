import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../context";
import { cors } from "./cors";
import { securityHeaders } from "./security-headers";

const ALLOWED = "https://shelter.example";

/** The proxy's order: the security headers around CORS, around a JSON route and a page. */
function app() {
  const hono = new Hono<AppEnv>();
  hono.use("*", async (c, next) => {
    c.set("logFields", {});
    await next();
  });
  hono.use("*", securityHeaders());
  hono.use("/v1/*", cors([ALLOWED]));
  hono.get("/v1/campaign", (c) => c.json({ name: "Spring" }));
  hono.post("/v1/donations", (c) => c.json({ id: "don_1" }));
  hono.get("/page", (c) => c.html("<!doctype html><p>A page</p>"));
  return hono;
}

const get = (path: string, headers: Record<string, string> = {}) =>
  app().request(`http://proxy.example:8787${path}`, { headers: { Host: "proxy.example:8787", ...headers } });

describe("security headers", () => {
  it("a JSON answer keeps nosniff, no framing, no caching and a CSP, without what only a document reads", async () => {
    const res = await get("/v1/campaign");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBeNull();
    // Not read in CORS mode (no Origin: a no-cors load may be another site's): CORP stays.
    expect(res.headers.get("cross-origin-resource-policy")).toBe("same-site");
  });

  it("a JSON answer read by an allowed origin in CORS mode goes without CORP", async () => {
    const res = await get("/v1/campaign", { Origin: ALLOWED });
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("cross-origin-resource-policy")).toBeNull();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("a page keeps its Referrer-Policy and base-uri", async () => {
    const res = await get("/page");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("content-security-policy")).toContain("base-uri 'none'");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("same-site");
  });

  it("HSTS only when the donor's connection is TLS", async () => {
    expect((await get("/v1/campaign")).headers.get("strict-transport-security")).toBeNull();
    const overTls = await get("/v1/campaign", { "X-Forwarded-Proto": "https" });
    expect(overTls.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("an answer no cache keeps, to a POST, has no Vary; a GET's keeps it", async () => {
    const post = await app().request("http://proxy.example:8787/v1/donations", {
      method: "POST",
      headers: { Host: "proxy.example:8787", Origin: ALLOWED },
    });
    expect(post.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(post.headers.get("cache-control")).toBe("no-store");
    expect(post.headers.get("vary")).toBeNull();
    expect((await get("/v1/campaign", { Origin: ALLOWED })).headers.get("vary")).toBe("Origin");
  });
});
