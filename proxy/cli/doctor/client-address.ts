/**
 * doctor's "client address": GIVEKIT_TRUST_PROXY, by what it trusts, what the running proxy
 * counted, and what a request sent through the front (GIVEKIT_PUBLIC_URL or --front) arrived as.
 */
import { compileTrust } from "../../client-ip";
import type { ProxyConfig } from "../../config";
import { DoctorNote, Finding } from "./finding";
import { countsByLabel, runningMetrics, runningProxyUrl } from "./running-proxy";

/** The running proxy's count of requests it could not place (client-ip.ts), by problem; null when it cannot be read. */
async function addressProblems(base: string, token: string): Promise<Record<string, number> | null> {
  const text = await runningMetrics(base, token);
  if (text === null) return null;
  return {
    untrusted_forwarder: 0,
    missing_forwarded_for: 0,
    ...countsByLabel(text, "givekit_client_address_problems_total", "problem"),
  };
}

/** Addresses nobody's reverse proxy has: a trust list holding one believes anybody's header. */
const PUBLIC_PROBES = ["8.8.8.8", "203.0.113.9", "2001:4860:4860::8888"];

/**
 * GIVEKIT_TRUST_PROXY, checked three ways: what it trusts (never a public address), what the
 * running proxy counted (a header from a peer it does not trust, or none from one it does), and,
 * with a front URL (GIVEKIT_PUBLIC_URL or --front), a request sent through the front and seen
 * arriving.
 */
export async function checkTrust(
  config: ProxyConfig,
  front: string | undefined,
): Promise<string | DoctorNote> {
  const { addresses, explicit } = config.trustProxy;
  const shown = addresses.length > 0 ? addresses.join(",") : "none";
  const trust = compileTrust(addresses);
  const open = PUBLIC_PROBES.find((address) => trust(address, 0));
  if (open)
    throw new Finding(
      "GIVEKIT_TRUST_PROXY",
      `${shown} trusts public addresses (${open}): anyone can write X-Forwarded-For and be believed, dodging every per-client limit`,
      "name only your reverse proxies (loopback for nginx or Caddy on this host, or their addresses or ranges)",
    );
  const base = runningProxyUrl(config);
  const token = config.metricsToken;
  const said = `GIVEKIT_TRUST_PROXY=${shown}${explicit ? "" : " (the default: HOST is loopback)"}`;
  if (!base)
    return new DoctorNote(
      `${said}; with PORT=0 there is no running proxy doctor can find to ask how it reads addresses`,
    );
  if (!token)
    return new DoctorNote(
      `${said}; set GIVEKIT_METRICS_TOKEN so doctor can see how a running proxy reads addresses`,
    );
  const before = await addressProblems(base, token);
  if (!before) return new DoctorNote(`${said}; no proxy answers at ${base} to say how it reads addresses`);
  let after = before;
  let through = "";
  const url = front ?? undefined;
  if (url) {
    const campaign = config.campaigns[0];
    const path = campaign ? `/v1/campaigns/${campaign.shortcode}/${campaign.keyword}` : "/v1/nothing-here";
    try {
      await fetch(new URL(path, url), { signal: AbortSignal.timeout(5000) });
    } catch (error) {
      throw new Finding(
        "GIVEKIT_PUBLIC_URL",
        `${url} does not answer (${error instanceof Error ? error.message : "no answer"})`,
        "set GIVEKIT_PUBLIC_URL (or --front) to the address donors' browsers use, or leave it unset",
      );
    }
    after = (await addressProblems(base, token)) ?? before;
    through = `; a request through ${url} arrived as its client's`;
  }
  const grew = (problem: string) => (after[problem] ?? 0) > (url ? (before[problem] ?? 0) : 0);
  if (grew("untrusted_forwarder"))
    throw new Finding(
      "GIVEKIT_TRUST_PROXY",
      `${url ? `a request through ${url}` : `the proxy at ${base} has had requests`} with X-Forwarded-For from a peer ${shown} does not trust${url ? "" : " (a reverse proxy in front, or clients forging the header: its log names the peer)"}: every donor behind a reverse proxy it does not trust counts as one client, and five declines block them all`,
      "add the reverse proxy's address (the proxy's log names it: \"X-Forwarded-For came from …\"), e.g. GIVEKIT_TRUST_PROXY=loopback",
    );
  if (grew("missing_forwarded_for")) {
    const fix =
      "make the reverse proxy set X-Forwarded-For (nginx: proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for), or set GIVEKIT_TRUST_PROXY=none if nothing is in front";
    // Without a front to send through, a request made on this host (a curl) counts as well.
    if (!url)
      return new DoctorNote(
        `${said}; the proxy at ${base} has had ${after.missing_forwarded_for} request(s) from a trusted address without X-Forwarded-For (a reverse proxy that does not set it, or requests made directly on this host): run givekit doctor --front https://… to tell. If it is the reverse proxy: ${fix}`,
      );
    throw new Finding(
      "GIVEKIT_TRUST_PROXY",
      `a request through ${url} came from a trusted reverse proxy without X-Forwarded-For: every donor counts as that proxy`,
      fix,
    );
  }
  return `${said}; the proxy at ${base} has placed every client${through}`;
}
