/**
 * Who may call the proxy and through what: the origins whose pages may use the API
 * (ALLOWED_ORIGINS) and the reverse proxies whose X-Forwarded-For is believed (GIVEKIT_TRUST_PROXY).
 */
import * as z from "zod/mini";
import { compileTrust, isLoopbackHost } from "../client-ip";

export interface NetworkConfig {
  /** Origins (scheme://host[:port]) whose pages may call the API and frame the card form. */
  allowedOrigins: string[];
  /**
   * GIVEKIT_TRUST_PROXY: the reverse proxies whose X-Forwarded-For is believed, by address, range
   * or name (loopback, linklocal, uniquelocal); [] believes none. `explicit`: set by the operator
   * (not the loopback default), so a trusted peer without the header is worth a warning.
   */
  trustProxy: { addresses: string[]; explicit: boolean };
}

/** Each variable's default ("" = required or optional without one). */
export const NETWORK_DEFAULTS = {
  ALLOWED_ORIGINS: "",
  GIVEKIT_TRUST_PROXY: "",
} as const;

/** "https://Example.org:443/x" → "https://example.org"; null when it is not an http(s) origin. */
export function parseOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.username || url.password || url.search || url.hash) return null;
    if (url.pathname !== "/" && url.pathname !== "") return null;
    return url.origin;
  } catch {
    return null;
  }
}

const Origins = z.pipe(
  z.string(),
  z.transform((value: string, ctx) => {
    const origins: string[] = [];
    for (const item of value.split(",")) {
      const text = item.trim();
      if (text === "") continue;
      const origin = parseOrigin(text);
      if (origin === null) {
        ctx.issues.push({
          code: "custom",
          input: text,
          message: `"${text}" is not an origin such as https://www.example.org`,
        });
        continue;
      }
      origins.push(origin);
    }
    return [...new Set(origins)];
  }),
);

/** GIVEKIT_TRUST_PROXY's new form, for the messages that name it. */
const TRUST_FORM =
  'name the reverse proxies by address or range, e.g. GIVEKIT_TRUST_PROXY=loopback (nginx or Caddy on this host), "loopback,10.0.0.0/8", or "none"';

/**
 * "" (the default: loopback when HOST is a loopback address), "none" or "false", or a list of
 * addresses and ranges. The old hop counts: "true" and "1" mean one reverse proxy on this host
 * (loopback, with a deprecation line); more hops are refused, as a count cannot say who to trust.
 */
const TrustProxy = z.pipe(
  z.string(),
  z.transform((text: string, ctx) => {
    const value = text.trim().toLowerCase();
    if (value === "" || value === "none" || value === "false" || value === "0")
      return { addresses: [] as string[], explicit: value !== "", hops: null as number | null };
    if (value === "true" || /^\d{1,2}$/.test(value)) {
      const hops = value === "true" ? 1 : Number(value);
      if (hops === 1) return { addresses: ["loopback"], explicit: true, hops };
      ctx.issues.push({
        code: "custom",
        input: text,
        message: `a number of hops (${hops}) no longer says whom to trust: ${TRUST_FORM}`,
      });
      return z.NEVER;
    }
    const addresses = value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    try {
      compileTrust(addresses);
    } catch (error) {
      ctx.issues.push({
        code: "custom",
        input: text,
        message: `${(error as Error).message.replace(/^invalid /, "holds an invalid ")}: ${TRUST_FORM}`,
      });
      return z.NEVER;
    }
    return { addresses, explicit: true, hops: null as number | null };
  }),
);

export const NetworkVariablesSchema = z.object({
  ALLOWED_ORIGINS: Origins,
  GIVEKIT_TRUST_PROXY: TrustProxy,
});
export type NetworkVariables = z.output<typeof NetworkVariablesSchema>;

/** `deprecations` gets a line when GIVEKIT_TRUST_PROXY is still a hop count. */
export function networkConfig(e: NetworkVariables & { HOST: string }, deprecations: string[]): NetworkConfig {
  return {
    allowedOrigins: e.ALLOWED_ORIGINS,
    trustProxy: trustProxy(e.GIVEKIT_TRUST_PROXY, e.HOST, deprecations),
  };
}

/** The trust list: the loopback default when nothing is set and only this host can reach the proxy. */
function trustProxy(
  parsed: { addresses: string[]; explicit: boolean; hops: number | null },
  host: string,
  deprecations: string[],
): NetworkConfig["trustProxy"] {
  if (parsed.hops !== null)
    deprecations.push(
      "GIVEKIT_TRUST_PROXY=true (or 1, a hop count) is now GIVEKIT_TRUST_PROXY=loopback: a reverse proxy on this host; set that, or name your reverse proxies by address or range",
    );
  if (!parsed.explicit && isLoopbackHost(host)) return { addresses: ["loopback"], explicit: false };
  return { addresses: parsed.addresses, explicit: parsed.explicit };
}
