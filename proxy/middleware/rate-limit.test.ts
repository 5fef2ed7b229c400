import { describe, expect, it } from "vitest";
import { createRateLimits } from "./rate-limit";
import { ProblemError } from "../problem";

const config = {
  paymentTokens: { burst: 2, perMin: 1 },
  donations: { burst: 2, perMin: 1 },
  subscriptions: { burst: 1, perMin: 1 },
  donationStatus: { burst: 2, perMin: 1 },
  formSessions: { burst: 2, perMin: 1 },
  declineLimit: 3,
  declineRatio: 0.5,
  declineWindowS: 60,
  declineBlockS: 120,
  inFlightTtlS: 30,
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
  it("allow the burst, then 429 rate_limited with Retry-After, saying so truthfully", async () => {
    const limits = createRateLimits(config);
    await limits.consume("donations", "198.51.100.1");
    await limits.consume("donations", "198.51.100.1");
    const problem = await problemOf(limits.consume("donations", "198.51.100.1"));
    expect(problem.status).toBe(429);
    expect(problem.code).toBe("rate_limited");
    expect(problem.detail).toBe("Too many gifts from this network right now. Try again in a minute.");
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

  it("count a client's declines as the defence's evidence, and never block an address for them", async () => {
    const limits = createRateLimits(config);
    const ip = "198.51.100.9";
    expect(await limits.declinesOf(ip)).toBe(0);
    for (let i = 0; i < config.declineLimit * 3; i++) await limits.recordDecline(ip);
    expect(await limits.declinesOf(ip)).toBe(config.declineLimit * 3);
    expect(await limits.declinesOf("198.51.100.10")).toBe(0);
    // The room behind that address still takes its turns: the defence challenges, it does not block.
    await limits.admit("donations", ip);
    await limits.admit("cardRequests", ip);
  });

  it("let at most a burst of one client's donations be at the upstream at once, and free each place after", async () => {
    const limits = createRateLimits(config);
    const ip = "198.51.100.40";
    const first = await limits.enterDonation(ip);
    const second = await limits.enterDonation(ip);
    const problem = await problemOf(limits.enterDonation(ip));
    expect([problem.status, problem.code]).toEqual([429, "rate_limited"]);
    await first();
    const third = await limits.enterDonation(ip);
    await Promise.all([second(), third()]);
    await limits.enterDonation("198.51.100.41");
  });

  it("let card requests through at twice the tokenizations' bucket, before any check", async () => {
    const limits = createRateLimits(config);
    const ip = "198.51.100.50";
    for (let i = 0; i < 4; i++) await limits.admit("cardRequests", ip);
    expect((await problemOf(limits.admit("cardRequests", ip))).code).toBe("rate_limited");
  });

  it("hold a client's next donation while its declines and those at the upstream would reach the limit", async () => {
    const limits = createRateLimits({ ...config, donations: { burst: 10, perMin: 60 } });
    const tester = "198.51.100.60";
    // Two of its donations came back declined; one more is at the upstream: 3, the limit.
    await limits.recordDecline(tester);
    await limits.recordDecline(tester);
    const atUpstream = await limits.enterDonation(tester);
    expect((await problemOf(limits.enterDonation(tester))).code).toBe("rate_limited");
    await atUpstream();
    await limits.enterDonation(tester);
    // A room: its declines are few beside the gifts that went through; several at the upstream at once.
    const room = "198.51.100.61";
    for (let i = 0; i < 20; i++) await limits.recordSuccess(room);
    await limits.recordDecline(room);
    await limits.recordDecline(room);
    for (let i = 0; i < 8; i++) await limits.enterDonation(room);
  });
});
