/** What doctor asks a proxy running with the same configuration: its /metrics, with the token. */
import type { ProxyConfig } from "../../config";

/** Where doctor can find a proxy running with this configuration (0.0.0.0 is reached on loopback). */
export function runningProxyUrl(config: ProxyConfig): string | null {
  if (config.port === 0) return null;
  const host = config.host === "0.0.0.0" ? "127.0.0.1" : config.host === "::" ? "::1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/** The running proxy's /metrics text; null when it cannot be read. */
export async function runningMetrics(base: string, token: string): Promise<string | null> {
  try {
    const res = await fetch(`${base}/metrics`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(2000),
    });
    return res.ok ? await res.text() : null;
  } catch {
    return null;
  }
}

/**
 * One counter's values by its one label, from /metrics text (label values unescaped).
 *
 * @example
 * countsByLabel(text, "givekit_optin_list_missing_total", "list"); // {"Hope Alerts": 2}
 */
export function countsByLabel(text: string, series: string, label: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const line = new RegExp(`^${series}\\{${label}="((?:[^"\\\\]|\\\\.)*)"\\} (\\d+)`, "gm");
  for (const [, value, count] of text.matchAll(line))
    counts[value!.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1")] = Number(count);
  return counts;
}
