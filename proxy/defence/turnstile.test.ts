// The Turnstile verifier against a local fake of the siteverify endpoint.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTurnstileVerifier } from "./turnstile";

const SECRET = "0x-test-secret";
let server: Server;
let url: string;
const used = new Set<string>();
const seen: Record<string, unknown>[] = [];

beforeAll(async () => {
  // Tokens "good-…" pass once; "slow" never answers; "broken" is a 500; anything else is forged.
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(text) as { secret: string; response: string; remoteip: string };
      seen.push(body);
      const reply = (success: boolean, codes: string[] = []) =>
        res
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify({ success, "error-codes": codes }));
      if (body.secret !== SECRET) return reply(false, ["invalid-input-secret"]);
      if (body.response === "slow") return;
      if (body.response === "broken") return void res.writeHead(500).end("oops");
      if (!body.response.startsWith("good-")) return reply(false, ["invalid-input-response"]);
      if (used.has(body.response)) return reply(false, ["timeout-or-duplicate"]);
      used.add(body.response);
      reply(true);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const verifier = (timeoutMs = 5_000) =>
  createTurnstileVerifier({ secret: SECRET, verifyUrl: url, timeoutMs });

describe("the Turnstile verifier", () => {
  it("a good proof passes once, with the secret and the donor's address sent to the endpoint", async () => {
    expect(await verifier().verify("good-1", "203.0.113.9")).toEqual({ kind: "passed" });
    expect(seen.at(-1)).toEqual({ secret: SECRET, response: "good-1", remoteip: "203.0.113.9" });
  });

  it("a replayed, forged, missing or oversized proof fails", async () => {
    expect(await verifier().verify("good-2", "203.0.113.9")).toEqual({ kind: "passed" });
    expect(await verifier().verify("good-2", "203.0.113.9")).toEqual({
      kind: "failed",
      reason: "timeout-or-duplicate",
    });
    expect(await verifier().verify("forged", "203.0.113.9")).toEqual({
      kind: "failed",
      reason: "invalid-input-response",
    });
    const calls = seen.length;
    expect(await verifier().verify(undefined, "203.0.113.9")).toMatchObject({ kind: "failed" });
    expect(await verifier().verify("x".repeat(2049), "203.0.113.9")).toMatchObject({ kind: "failed" });
    expect(seen.length).toBe(calls);
  });

  it("an endpoint that is slow, broken, unreachable or refuses the secret is unavailable, not a failed donor", async () => {
    expect(await verifier().verify("slow", "203.0.113.9")).toEqual({
      kind: "unavailable",
      reason: "timed out",
    });
    expect(await verifier().verify("broken", "203.0.113.9")).toEqual({
      kind: "unavailable",
      reason: "HTTP 500",
    });
    const wrongSecret = createTurnstileVerifier({ secret: "other", verifyUrl: url, timeoutMs: 5_000 });
    expect(await wrongSecret.verify("good-3", "203.0.113.9")).toMatchObject({ kind: "unavailable" });
    const nowhere = createTurnstileVerifier({
      secret: SECRET,
      verifyUrl: "http://127.0.0.1:9/x",
      timeoutMs: 500,
    });
    expect(await nowhere.verify("good-4", "203.0.113.9")).toEqual({
      kind: "unavailable",
      reason: "unreachable",
    });
  });
});
