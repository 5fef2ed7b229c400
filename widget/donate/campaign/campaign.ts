import type { CampaignResponse } from "../../../contract/api";
import type { ApiClient } from "../../shared/api-client";
import type { DonateTarget } from "../base/attributes";
import { readCampaign } from "../base/responses";

/** Where the proxy answers with the settings of the campaign a short code and keyword name. */
export const keywordPath = (shortcode: string, keyword: string) =>
  `/v1/campaigns/${encodeURIComponent(shortcode)}/${encodeURIComponent(keyword)}`;

/** Where the proxy answers with the campaign's public settings. */
export function campaignPath(target: DonateTarget): string {
  if (target.shortcode && target.keyword) return keywordPath(target.shortcode, target.keyword);
  const params = new URLSearchParams({
    event_id: target.event_id ?? "",
    event_type: target.event_type ?? "",
  });
  return `/v1/campaigns?${params}`;
}

/**
 * The campaign an element's short code and keyword name, read as widget.js can before the
 * element's code has come (widget/loader.ts asks for it then): for attributes the element
 * accepts, the very path fetchCampaign() asks (campaign.test.ts holds the two together), so that
 * request takes this one's answer over. Null for attributes that name none this way (a form
 * named by its event asks for its campaign itself).
 */
export function earlyCampaignPath(get: (name: string) => string | null): string | null {
  const shortcode = get("shortcode");
  const keyword = get("keyword");
  const form = get("form");
  // A saved form's name goes as the form sends it (a slug: nothing to encode), a bad one too: the form then shows its note.
  return shortcode && keyword
    ? keywordPath(shortcode, keyword.toUpperCase()) + (form ? `?form=${encodeURIComponent(form)}` : "")
    : null;
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
