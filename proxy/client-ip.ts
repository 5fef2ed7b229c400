/** The client's address, and the key rate limits count it under. */
import { isIP } from "node:net";

/**
 * The address the request came from. With trusted reverse proxies in front (hops > 0), the
 * entry that the nearest trusted proxy appended to X-Forwarded-For; otherwise the socket's peer.
 *
 * @example
 * clientIp("10.0.0.2", "203.0.113.9, 198.51.100.7", 1); // "198.51.100.7": what the one trusted proxy saw
 * clientIp("10.0.0.2", "198.51.100.7", 0); // "10.0.0.2": the header is ignored
 */
export function clientIp(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  hops: number,
): string {
  if (hops > 0 && forwardedFor) {
    const chain = forwardedFor
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "");
    const candidate = chain[chain.length - hops];
    if (candidate && isIP(stripMapped(candidate))) return stripMapped(candidate);
  }
  return socketAddress ? stripMapped(socketAddress) : "unknown";
}

/** "::ffff:127.0.0.1" → "127.0.0.1". */
function stripMapped(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * The key a client is counted under: an IPv4 address, or an IPv6 /64 network (one home or
 * phone usually holds a whole /64, so counting single IPv6 addresses would count nothing).
 */
export function rateLimitKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(":")}::/64`;
}

function expandIpv6(ip: string): string[] {
  const [head = "", tail] = ip.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - left.length - right.length;
  return [...left, ...Array.from({ length: Math.max(missing, 0) }, () => "0"), ...right].map((part) =>
    part.toLowerCase().padStart(4, "0"),
  );
}
