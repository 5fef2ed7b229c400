import { describe, expect, it } from "vitest";
import { cors } from "./cors";
import { appWith } from "./test-app";

const ALLOWED = "https://shelter.example";
const app = appWith(cors([ALLOWED]));

function request(method: string, headers: Record<string, string>) {
  return app.request("http://proxy.example:8787/v1/donations", {
    method,
    headers: { Host: "proxy.example:8787", ...headers },
  });
}

describe("CORS", () => {
  it("an allowed origin may POST and read the answer", async () => {
    const res = await request("POST", { Origin: ALLOWED });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    // Only what the answer has: every API answer its request id.
    expect(res.headers.get("access-control-expose-headers")).toBe("X-Request-Id");
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("an answer with Retry-After or Idempotent-Replayed lets the page read them", async () => {
    const replay = appWith(cors([ALLOWED]), async (c, next) => {
      await next();
      c.res.headers.set("Idempotent-Replayed", "true");
      c.res.headers.set("Retry-After", "3");
    });
    const res = await replay.request("http://proxy.example:8787/v1/donations", {
      method: "POST",
      headers: { Host: "proxy.example:8787", Origin: ALLOWED },
    });
    expect(res.headers.get("access-control-expose-headers")).toBe(
      "Idempotent-Replayed, Retry-After, X-Request-Id",
    );
  });

  it("a POST from another origin is refused with 403 origin_not_allowed", async () => {
    const res = await request("POST", { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe("origin_not_allowed");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("an opaque origin ('null') is refused too", async () => {
    expect((await request("POST", { Origin: "null" })).status).toBe(403);
  });

  it("a GET from another origin is answered without CORS headers (the browser keeps it from the page)", async () => {
    const res = await request("GET", { Origin: "https://evil.example" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("preflight: allowed origin → 204 with the headers (GET and POST need no Allow-Methods: CORS-safelisted)", async () => {
    const res = await request("OPTIONS", {
      Origin: ALLOWED,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,idempotency-key",
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("access-control-allow-methods")).toBeNull();
    expect(res.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
  });

  it("preflight: another origin → 403", async () => {
    const res = await request("OPTIONS", {
      Origin: "https://evil.example",
      "Access-Control-Request-Method": "POST",
    });
    expect(res.status).toBe(403);
  });

  it("the proxy's own origin (the card frame) is allowed, same-origin: no CORS header to read its answer", async () => {
    const res = await request("POST", { Origin: "http://proxy.example:8787" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-expose-headers")).toBeNull();
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("a request without Origin (not from a browser page) passes", async () => {
    expect((await request("POST", {})).status).toBe(200);
  });
});
