// The upstream's own errors, answered in one place (problem.ts's problemOf) as a caller sees them.
import { describe, expect, it } from "vitest";
import { problemOf, problemResponse } from "../problem";
import { UpstreamAnswerError, UpstreamAuthError, UpstreamUnreachableError } from "./errors";

async function answer(error: unknown) {
  const problem = problemOf(error);
  if (!problem) return null;
  const res = problemResponse(problem);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("an upstream failure as the caller is answered", () => {
  it("nothing sent → 503 upstream_unavailable, saying nothing was sent (never the network's own words)", async () => {
    const reply = await answer(new UpstreamUnreachableError("ECONNREFUSED"));
    expect(reply).toEqual({
      status: 503,
      body: expect.objectContaining({
        code: "upstream_unavailable",
        detail: "The fundraising service cannot be reached. Nothing was sent.",
      }),
    });
    expect(JSON.stringify(reply)).not.toContain("ECONNREFUSED");
  });

  it("credentials refused → 502 upstream_auth_failed; an answer givekit cannot use → 502 upstream_error", async () => {
    expect(await answer(new UpstreamAuthError("Login was refused (HTTP 401).", 401))).toEqual({
      status: 502,
      body: expect.objectContaining({
        code: "upstream_auth_failed",
        detail: "Login was refused (HTTP 401).",
      }),
    });
    expect(await answer(new UpstreamAnswerError("Subscribing failed (HTTP 500).", 500))).toEqual({
      status: 502,
      body: expect.objectContaining({ code: "upstream_error", detail: "Subscribing failed (HTTP 500)." }),
    });
  });

  it("anything else is no upstream answer: a 500 (null here)", async () => {
    expect(await answer(new Error("upstream down"))).toBeNull();
  });
});
