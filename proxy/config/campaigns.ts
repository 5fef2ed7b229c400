/**
 * The campaigns this proxy serves: the campaigns file (GIVEKIT_CAMPAIGNS) read and checked, and
 * how long their public reads (peers, progress) are kept before the upstream is asked again.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as z from "zod/mini";
import { CampaignSchema, DisplaySettingsSchema, type Campaign } from "../../contract/api";
import { toCents } from "../../contract/money";
import { absolute, ConfigError, REPO_ROOT, Required, whole } from "./values";

export const DEFAULT_CAMPAIGNS_PATH = resolve(REPO_ROOT, "proxy/campaigns.demo.json");

export interface CampaignsConfig {
  campaignsPath: string;
  campaigns: Campaign[];
  peersCacheS: number;
  /** GIVEKIT_PROGRESS_CACHE_S: how long a campaign's progress is kept before the report is read again. */
  progressCacheS: number;
}

/** Each variable's default. */
export const CAMPAIGNS_DEFAULTS = {
  GIVEKIT_CAMPAIGNS: DEFAULT_CAMPAIGNS_PATH,
  GIVEKIT_PEERS_CACHE_S: "60",
  GIVEKIT_PROGRESS_CACHE_S: "60",
} as const;

export const CampaignsVariablesSchema = z.object({
  GIVEKIT_CAMPAIGNS: Required,
  GIVEKIT_PEERS_CACHE_S: whole(0, 24 * 3600),
  GIVEKIT_PROGRESS_CACHE_S: whole(0, 24 * 3600),
});
export type CampaignsVariables = z.output<typeof CampaignsVariablesSchema>;

/** The campaigns file is read here, once, when the configuration is loaded. */
export function campaignsConfig(e: CampaignsVariables): CampaignsConfig {
  const campaignsPath = absolute(e.GIVEKIT_CAMPAIGNS);
  return {
    campaignsPath,
    campaigns: loadCampaigns(campaignsPath),
    peersCacheS: e.GIVEKIT_PEERS_CACHE_S,
    progressCacheS: e.GIVEKIT_PROGRESS_CACHE_S,
  };
}

const CampaignsFileSchema = z.strictObject({
  campaigns: z.array(CampaignSchema).check(z.minLength(1, "must list at least one campaign")),
  /** The campaigns with a screen for the room (proxy/campaign/directory.ts loadDisplays). */
  displays: z.optional(z.array(DisplaySettingsSchema)),
});

/** "campaigns.1.goal_amount" → "campaigns.1.goal_amount (campaign 41444/MEALS)", naming the campaign where it can. */
function describePath(raw: unknown, path: readonly PropertyKey[]): string {
  const dotted = path.map(String).join(".");
  const [list, index] = path;
  if (list !== "campaigns" || typeof index !== "number") return dotted;
  const entry = (raw as { campaigns?: unknown[] }).campaigns?.[index] as
    | { shortcode?: unknown; keyword?: unknown }
    | undefined;
  if (typeof entry?.shortcode !== "string" || typeof entry.keyword !== "string") return dotted;
  return `${dotted} (campaign ${entry.shortcode}/${entry.keyword})`;
}

/**
 * Reads and checks the campaigns file (GIVEKIT_CAMPAIGNS).
 *
 * @example
 * const campaigns = loadCampaigns("proxy/campaigns.demo.json"); // [{shortcode: "71777", keyword: "HOPE", …}, …]
 */
export function loadCampaigns(path: string): Campaign[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "not readable JSON";
    throw new ConfigError("GIVEKIT_CAMPAIGNS", `${path}: ${reason}`);
  }
  const parsed = CampaignsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? describePath(raw, issue.path) : "(file)";
    const message =
      issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : issue.message;
    throw new ConfigError("GIVEKIT_CAMPAIGNS", `${path}: ${where}: ${message}`);
  }
  const seen = new Set<string>();
  parsed.data.campaigns.forEach((campaign, index) => {
    const id = `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
    if (seen.has(id))
      throw new ConfigError("GIVEKIT_CAMPAIGNS", `${path}: campaigns.${index}: ${id} is listed twice`);
    seen.add(id);
    if (toCents(campaign.min_amount) > toCents(campaign.max_amount)) {
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: campaigns.${index}.min_amount: must not exceed max_amount`,
      );
    }
    if (Boolean(campaign.event_id) !== Boolean(campaign.event_type)) {
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: campaigns.${index}: event_id and event_type go together`,
      );
    }
  });
  (parsed.data.displays ?? []).forEach((display, index) => {
    if (!seen.has(`${display.shortcode}/${display.keyword.toUpperCase()}`))
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: displays.${index}: ${display.shortcode}/${display.keyword} is not one of the campaigns`,
      );
  });
  return parsed.data.campaigns;
}
