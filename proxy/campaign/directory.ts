/** The campaigns this proxy serves (GIVEKIT_CAMPAIGNS), looked up by keyword or by event. */
import { readFileSync } from "node:fs";
import { DisplaySettingsSchema, type Campaign, type DisplaySettings } from "../../contract/api";

export interface CampaignDirectory {
  all: readonly Campaign[];
  /** Keywords are matched without regard to case, as the SMS keywords they are. */
  byKeyword(shortcode: string, keyword: string): Campaign | undefined;
  byEvent(eventId: string, eventType: string): Campaign | undefined;
  /** Whether some campaign offers SMS opt-in to this list. */
  offersList(list: string): boolean;
}

/**
 * A campaign's name in logs, signals and `givekit doctor`: "71777/HOPE".
 *
 * @example
 * campaignScope({ shortcode: "71777", keyword: "hope" }); // "71777/HOPE"
 */
export const campaignScope = (campaign: { shortcode: string; keyword: string }) =>
  `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;

/**
 * @example
 * const directory = createCampaignDirectory(config.campaigns);
 * directory.byKeyword("71777", "hope")?.fee_rate; // "0.03"
 */
export function createCampaignDirectory(campaigns: readonly Campaign[]): CampaignDirectory {
  const byKeyword = new Map(campaigns.map((c) => [`${c.shortcode}/${c.keyword.toUpperCase()}`, c]));
  const byEvent = new Map(
    campaigns.filter((c) => c.event_id && c.event_type).map((c) => [`${c.event_type}/${c.event_id}`, c]),
  );
  const lists = new Set(campaigns.flatMap((c) => c.opt_in_lists));
  return {
    all: campaigns,
    byKeyword: (shortcode, keyword) => byKeyword.get(`${shortcode}/${keyword.toUpperCase()}`),
    byEvent: (eventId, eventType) => byEvent.get(`${eventType}/${eventId}`),
    offersList: (list) => lists.has(list),
  };
}

/**
 * The campaigns file's screens for the room (`displays`, checked with the file when the
 * configuration loaded: loadCampaigns), by campaign ("71777/HOPE").
 *
 * @example
 * loadDisplays("proxy/campaigns.demo.json").get("71777/HOPE")?.donate_url; // "http://localhost:5173/"
 */
export function loadDisplays(path: string): Map<string, DisplaySettings> {
  const raw = JSON.parse(readFileSync(path, "utf8")) as { displays?: unknown[] };
  const displays = (raw.displays ?? []).map((display) => DisplaySettingsSchema.parse(display));
  return new Map(displays.map((display) => [campaignScope(display), display]));
}
