import { describe, expect, it } from "vitest";
import { createRateLimits } from "./rate-limit";
import { ProblemError } from "../problem";

const config = {
  windowS: 60,
  paymentTokens: 2,
  donations: 2,
  subscriptions: 1,
  donationStatus: 2,
  declineLimit: 3,
  declineWindowS: 60,
  declineBlockS: 120,
};

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error("no problem raised");
}

describe("rate limits", () => {
  it("allow the configured number per window, then 429 rate_limited with Retry-After", async () => {
    const limits = createRateLimits(config);
    await limits.consume("donations", "198.51.100.1");
    await limits.consume("donations", "198.51.100.1");
    const problem = await problemOf(limits.consume("donations", "198.51.100.1"));
    expect(problem.status).toBe(429);
    expect(problem.code).toBe("rate_limited");
    expect(Number(problem.headers["Retry-After"])).toBeGreaterThan(0);
    expect(Number(problem.headers["Retry-After"])).toBeLessThanOrEqual(60);
  });

  it("count each action and each client separately", async () => {
    const limits = createRateLimits(config);
    await limits.consume("subscriptions", "198.51.100.1");
    await limits.consume("subscriptions", "198.51.100.2");
    await limits.consume("donations", "198.51.100.1");
    expect((await problemOf(limits.consume("subscriptions", "198.51.100.1"))).code).toBe("rate_limited");
  });

  it("count an IPv6 client by its /64", async () => {
    const limits = createRateLimits(config);
    await limits.consume("subscriptions", "2001:db8:1:2::1");
    expect((await problemOf(limits.consume("subscriptions", "2001:db8:1:2::ffff"))).code).toBe(
      "rate_limited",
    );
    await limits.consume("subscriptions", "2001:db8:1:3::1");
  });

  it("block a client after the configured number of declines, for the block time", async () => {
    const limits = createRateLimits(config);
    const ip = "198.51.100.9";
    await limits.recordDecline(ip);
    await limits.recordDecline(ip);
    await limits.assertNotBlocked(ip);
    await limits.recordDecline(ip);
    const problem = await problemOf(limits.assertNotBlocked(ip));
    expect(problem.code).toBe("too_many_declines");
    expect(problem.status).toBe(429);
    expect(Number(problem.headers["Retry-After"])).toBeGreaterThan(60);
    expect(Number(problem.headers["Retry-After"])).toBeLessThanOrEqual(120);
    await limits.assertNotBlocked("198.51.100.10");
  });
});
