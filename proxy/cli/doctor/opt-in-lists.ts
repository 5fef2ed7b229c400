/**
 * doctor's "opt-in lists": the campaigns file's opt-in lists as the upstream's account answered
 * them. The service's API has no read of an account's lists (the service interface lists
 * none), so doctor reads what opt-ins met at the running proxy: a 404 for a list (counted in
 * givekit_optin_list_missing_total) means the account has no list by that name.
 */
import type { ProxyConfig } from "../../config";
import { DoctorNote, Finding } from "./finding";
import { countsByLabel, runningMetrics, runningProxyUrl } from "./running-proxy";

/** The lists the campaigns file offers, each once. */
export function offeredLists(config: ProxyConfig): string[] {
  return [...new Set(config.campaigns.flatMap((campaign) => campaign.opt_in_lists))];
}

export async function checkOptInLists(config: ProxyConfig): Promise<string | DoctorNote> {
  const lists = offeredLists(config);
  const named = lists.map((list) => `"${list}"`).join(", ");
  const base = runningProxyUrl(config);
  const token = config.metricsToken;
  const unread = (why: string) =>
    new DoctorNote(
      `${named}: not checked (${why}); the service's API has no read of an account's lists, so doctor reads what opt-ins met at the running proxy`,
    );
  if (!base) return unread("with PORT=0 there is no running proxy doctor can find");
  if (!token) return unread("set GIVEKIT_METRICS_TOKEN so doctor can read the running proxy's counts");
  const text = await runningMetrics(base, token);
  if (text === null) return unread(`no proxy answers at ${base}`);
  const missing = countsByLabel(text, "givekit_optin_list_missing_total", "list");
  const refused = lists.filter((list) => (missing[list] ?? 0) > 0);
  if (refused.length > 0)
    throw new Finding(
      "GIVEKIT_CAMPAIGNS",
      refused
        .map(
          (list) =>
            `the upstream answered 404 for the list "${list}" (${missing[list]} opt-in(s) refused): the account has no list by that name`,
        )
        .join("; "),
      "correct the name in the campaign's opt_in_lists as the account spells it, or create the list in the account, then restart the proxy",
    );
  return new DoctorNote(
    `${named}: no opt-in refused for want of its list since the proxy at ${base} started (an opt-in proves a list; the API has no read of an account's lists)`,
  );
}
