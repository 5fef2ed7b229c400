import { describe, expect, it } from "vitest";
import { clientIp, rateLimitKey } from "./client-ip";

describe("the client's address", () => {
  it("is the socket's peer, IPv4-mapped addresses unwrapped", () => {
    expect(clientIp("::ffff:203.0.113.5", undefined, 0)).toBe("203.0.113.5");
    expect(clientIp("2001:db8::1", undefined, 0)).toBe("2001:db8::1");
  });

  it("ignores X-Forwarded-For unless GIVEKIT_TRUST_PROXY is set", () => {
    expect(clientIp("10.0.0.2", "198.51.100.7", 0)).toBe("10.0.0.2");
  });

  it("with trusted proxies, takes the entry the nearest trusted one added, so a forged prefix is ignored", () => {
    expect(clientIp("10.0.0.2", "1.2.3.4, 198.51.100.7", 1)).toBe("198.51.100.7");
    expect(clientIp("10.0.0.2", "1.2.3.4, 198.51.100.7, 10.0.0.1", 2)).toBe("198.51.100.7");
  });

  it("falls back to the socket when the header is short or not an address", () => {
    expect(clientIp("10.0.0.2", "198.51.100.7", 2)).toBe("10.0.0.2");
    expect(clientIp("10.0.0.2", "not-an-ip", 1)).toBe("10.0.0.2");
  });

  it("is counted per IPv4 address and per IPv6 /64", () => {
    expect(rateLimitKey("203.0.113.5")).toBe("203.0.113.5");
    expect(rateLimitKey("2001:db8:1:2:3:4:5:6")).toBe("2001:0db8:0001:0002::/64");
    expect(rateLimitKey("2001:db8:1:2::9")).toBe("2001:0db8:0001:0002::/64");
    expect(rateLimitKey("::1")).toBe("0000:0000:0000:0000::/64");
  });
});
