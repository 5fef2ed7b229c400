/** The client's address, and the key rate limits count it under. */
import { isIP } from "node:net";
import proxyAddr from "proxy-addr";

/** Whether an address (and its place in the chain, 0 = the socket's peer) is a trusted reverse proxy. */
export type TrustFn = (address: string, hop: number) => boolean;

/** proxy-addr's names for whole ranges; anything else is an address or a CIDR range. */
export const TRUST_NAMES = ["loopback", "linklocal", "uniquelocal"] as const;

/**
 * The trust function for GIVEKIT_TRUST_PROXY's list (addresses, CIDR ranges, or the names
 * loopback, linklocal, uniquelocal); throws a TypeError naming an entry it cannot read.
 *
 * @example
 * const trust = compileTrust(["loopback", "10.0.0.0/8"]);
 * trust("127.0.0.1", 0); // true
 */
export function compileTrust(list: readonly string[]): TrustFn {
  if (list.length === 0) return () => false;
  return proxyAddr.compile([...list]);
}

export interface ClientAddress {
  /** The client's address: the first one, walking back from the socket, that no trusted proxy gave. */
  ip: string;
  /** The socket's peer. */
  peer: string;
  /** Whether the socket's peer is a trusted reverse proxy. */
  peerTrusted: boolean;
  /** Whether the request came with an X-Forwarded-For header. */
  forwarded: boolean;
}

/**
 * Who the client is, by who the peer is: X-Forwarded-For is read only as far back as the
 * addresses in it are trusted proxies, so an entry a client wrote itself is never believed.
 *
 * @example
 * const trust = compileTrust(["loopback"]);
 * clientAddress("127.0.0.1", "203.0.113.9, 198.51.100.7", trust).ip; // "198.51.100.7": what nginx saw
 * clientAddress("198.51.100.7", "9.9.9.9", trust).ip; // "198.51.100.7": the header is not believed
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trust: TrustFn,
): ClientAddress {
  const peer = socketAddress ? stripMapped(socketAddress) : "unknown";
  const forwarded = forwardedFor !== undefined && forwardedFor.trim() !== "";
  if (!socketAddress) return { ip: peer, peer, peerTrusted: false, forwarded };
  const request = {
    socket: { remoteAddress: socketAddress },
    connection: { remoteAddress: socketAddress },
    headers: forwarded ? { "x-forwarded-for": forwardedFor } : {},
  };
  // The chain from the socket back, as far as trust reaches, and the one address after it.
  const chain = proxyAddr.all(request as never, trust);
  const peerTrusted = chain.length > 1 || (forwarded === false && trust(socketAddress, 0));
  // Garbage in the header ends the walk at the last proxy that passed it on.
  let ip = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    const candidate = stripMapped(chain[i]!);
    if (isIP(candidate)) {
      ip = candidate;
      break;
    }
  }
  return { ip, peer, peerTrusted, forwarded };
}

/** What the client address can tell the operator about GIVEKIT_TRUST_PROXY. */
export type AddressProblem = "untrusted_forwarder" | "missing_forwarded_for";

/** Paths a probe or a scraper asks directly, past any reverse proxy: no header is expected of them. */
const ASKED_DIRECTLY = new Set(["/v1/health", "/v1/ready", "/metrics"]);

/**
 * The one rule for what an address says about GIVEKIT_TRUST_PROXY, whichever way it was set
 * (the default trusts loopback too): X-Forwarded-For from a peer not trusted, or none from a
 * trusted peer (every donor behind it would count as that peer). Null when all is as expected.
 *
 * @example
 * addressProblem(clientAddress("127.0.0.1", undefined, compileTrust(["loopback"])), "/v1/donations"); // "missing_forwarded_for"
 */
export function addressProblem(address: ClientAddress, path: string): AddressProblem | null {
  if (address.forwarded && !address.peerTrusted) return "untrusted_forwarder";
  if (!address.forwarded && address.peerTrusted && !ASKED_DIRECTLY.has(path)) return "missing_forwarded_for";
  return null;
}

/** "::ffff:127.0.0.1" → "127.0.0.1". */
function stripMapped(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** Whether a host the proxy listens on is a loopback address (only this machine can reach it). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare === "localhost") return true;
  return isIP(stripMapped(bare)) !== 0 && compileTrust(["loopback"])(bare, 0);
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
