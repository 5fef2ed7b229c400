import type { CampaignResponse } from "../../../contract/api";
import type { ApiClient } from "../../shared/api-client";
import type { DonateTarget } from "../attributes";
import { readCampaign } from "../responses";

function campaignPath(target: DonateTarget): string {
  if (target.shortcode && target.keyword) {
    return `/v1/campaigns/${encodeURIComponent(target.shortcode)}/${encodeURIComponent(target.keyword)}`;
  }
  const params = new URLSearchParams({
    event_id: target.event_id ?? "",
    event_type: target.event_type ?? "",
  });
  return `/v1/campaigns?${params}`;
}

/**
 * The campaign's public settings (amounts, fee rate, frequencies), or null with a `[givekit]`
 * line saying why: the proxy refused, could not be reached, or answered something unexpected.
 */
export async function fetchCampaign(api: ApiClient, target: DonateTarget): Promise<CampaignResponse | null> {
  const result = await api.get<unknown>(campaignPath(target));
  const loaded = result.kind === "ok" ? readCampaign(result.data) : null;
  if (!loaded) {
    const why =
      result.kind === "ok"
        ? "an unexpected answer"
        : result.kind === "problem"
          ? result.problem.code
          : "the proxy could not be reached";
    console.error(`[givekit] <givekit-donate>: the campaign could not be loaded (${why}).`);
  }
  return loaded;
}
