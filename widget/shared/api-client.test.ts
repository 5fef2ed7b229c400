import { afterEach, describe, expect, it, vi } from "vitest";
import { ERROR_CODES } from "../../contract/errors";
import { createApiClient } from "./api-client";

afterEach(() => vi.unstubAllGlobals());

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/problem+json" } });

/** A 429 with this Retry-After. */
const held = (retryAfter: string) =>
  new Response(JSON.stringify({ code: "rate_limited" }), {
    status: 429,
    headers: { "Retry-After": retryAfter },
  });

describe("the widget's API client tells an answer, a problem and no answer apart", () => {
  it("a proxy that cannot be reached is its own result, not a server error code", async () => {
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockRejectedValue(new TypeError("Failed to fetch")));
    expect(await createApiClient("https://give.example.org").get("/v1/health")).toEqual({
      kind: "unreachable",
    });
  });

  it("a problem carries the proxy's code and per-field errors", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>().mockResolvedValue(
        answer(400, {
          type: "urn:x",
          title: "t",
          status: 400,
          code: "validation_failed",
          errors: { a: ["b"] },
        }),
      ),
    );
    const result = await createApiClient("https://give.example.org").post("/v1/donations", {});
    expect(result).toMatchObject({
      kind: "problem",
      problem: { status: 400, code: "validation_failed", errors: { a: ["b"] } },
    });
  });

  it("a held request carries the proxy's Retry-After in seconds; a date or nonsense there is none", async () => {
    const client = createApiClient("https://give.example.org");
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockResolvedValue(held("4")));
    expect(await client.post("/v1/donations", {})).toMatchObject({ kind: "problem", retryAfterS: 4 });
    for (const nonsense of ["Wed, 21 Oct 2026 07:28:00 GMT", "-3", "soon", "1e9"]) {
      vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockResolvedValue(held(nonsense)));
      expect(await client.post("/v1/donations", {}), nonsense).not.toHaveProperty("retryAfterS");
    }
  });

  it("an answer without a known code is an upstream problem", async () => {
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockResolvedValue(answer(502, { code: "network_error" })));
    const result = await createApiClient("https://give.example.org").get("/v1/health");
    expect(result).toMatchObject({ kind: "problem", problem: { status: 502, code: "upstream_error" } });
  });

  it("the server's error enum holds no browser state", () => {
    expect(ERROR_CODES).not.toContain("network_error");
  });
});
