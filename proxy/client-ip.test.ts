import { describe, expect, it } from "vitest";
import { clientAddress, compileTrust, isLoopbackHost, rateLimitKey } from "./client-ip";

const none = compileTrust([]);
const loopback = compileTrust(["loopback"]);
const ip = (peer: string, header: string | undefined, trust = loopback) =>
  clientAddress(peer, header, trust).ip;

describe("the client's address", () => {
  it("is the socket's peer, IPv4-mapped addresses unwrapped", () => {
    expect(ip("::ffff:203.0.113.5", undefined, none)).toBe("203.0.113.5");
    expect(ip("2001:db8::1", undefined, none)).toBe("2001:db8::1");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy, whatever it says", () => {
    expect(ip("10.0.0.2", "198.51.100.7", none)).toBe("10.0.0.2");
    const forged = clientAddress("203.0.113.5", "9.9.9.9", loopback);
    expect(forged).toEqual({ ip: "203.0.113.5", peer: "203.0.113.5", peerTrusted: false, forwarded: true });
  });

  it("from a trusted proxy, walks back only as far as the addresses are trusted proxies", () => {
    expect(ip("127.0.0.1", "1.2.3.4, 198.51.100.7")).toBe("198.51.100.7");
    const twoHops = compileTrust(["loopback", "10.0.0.0/8"]);
    expect(ip("127.0.0.1", "1.2.3.4, 198.51.100.7, 10.0.0.1", twoHops)).toBe("198.51.100.7");
    // A forged prefix that names a trusted address is still only a prefix.
    expect(ip("127.0.0.1", "10.0.0.9, 198.51.100.7", twoHops)).toBe("198.51.100.7");
  });

  it("takes IPv6 and IPv4-mapped peers and entries", () => {
    expect(ip("::1", "2001:db8::5")).toBe("2001:db8::5");
    expect(ip("::ffff:127.0.0.1", "::ffff:198.51.100.7")).toBe("198.51.100.7");
  });

  it("stops at garbage in the header: the last proxy that passed it on is the client", () => {
    expect(ip("127.0.0.1", "not-an-ip")).toBe("127.0.0.1");
    expect(ip("127.0.0.1", "198.51.100.7, <script>")).toBe("127.0.0.1");
    expect(ip("127.0.0.1", ",,, ,")).toBe("127.0.0.1");
    expect(ip("127.0.0.1", `${"1.1.1.1, ".repeat(500)}198.51.100.7`)).toBe("198.51.100.7");
  });

  it("says whether a trusted peer sent the header", () => {
    expect(clientAddress("127.0.0.1", undefined, loopback)).toMatchObject({
      peerTrusted: true,
      forwarded: false,
    });
    expect(clientAddress("127.0.0.1", undefined, none)).toMatchObject({
      peerTrusted: false,
      forwarded: false,
    });
  });

  it("refuses an entry of the trust list it cannot read", () => {
    expect(() => compileTrust(["yes"])).toThrow(/yes/);
    expect(() => compileTrust(["10.0.0.0/99"])).toThrow(/10\.0\.0\.0\/99/);
  });

  it("knows a loopback host", () => {
    expect(["127.0.0.1", "::1", "localhost", "127.0.0.2"].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["0.0.0.0", "::", "192.168.1.2"].map(isLoopbackHost)).toEqual([false, false, false]);
  });

  it("is counted per IPv4 address and per IPv6 /64", () => {
    expect(rateLimitKey("203.0.113.5")).toBe("203.0.113.5");
    expect(rateLimitKey("2001:db8:1:2:3:4:5:6")).toBe("2001:0db8:0001:0002::/64");
    expect(rateLimitKey("2001:db8:1:2::9")).toBe("2001:0db8:0001:0002::/64");
    expect(rateLimitKey("::1")).toBe("0000:0000:0000:0000::/64");
  });
});
