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

/** What fixes a campaigns file that has the file's content wrong. */
const CAMPAIGNS_CONTENT_FIX =
  'correct that entry of the file (its fields: proxy/GUIDE.md, "The campaigns file"), then run givekit doctor again';

/**
 * Why a campaigns file cannot be read, as the operator fixes it: four causes, four messages
 * (no such file, not this user's to read, not a file, not JSON), each naming the file.
 */
function unreadableCampaigns(path: string, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof SyntaxError)
    return new ConfigError(
      "GIVEKIT_CAMPAIGNS",
      `${path}: not JSON (${error.message})`,
      "correct the JSON at the place named (a missing comma or quote, a trailing comma), or set GIVEKIT_CAMPAIGNS to the right file",
    );
  if (code === "ENOENT")
    return new ConfigError(
      "GIVEKIT_CAMPAIGNS",
      `${path}: no such file`,
      'create it (proxy/GUIDE.md, "The campaigns file"), or set GIVEKIT_CAMPAIGNS to the file\'s path (a relative path is from the working directory)',
    );
  if (code === "EACCES" || code === "EPERM")
    return new ConfigError(
      "GIVEKIT_CAMPAIGNS",
      `${path}: this user cannot read it (permission denied, ${code})`,
      "let the proxy's user read it (e.g. chgrp givekit and chmod 640 the file, and the folders above it must let that user through), and run givekit as that user",
    );
  return new ConfigError(
    "GIVEKIT_CAMPAIGNS",
    `${path}: cannot be read (${code ?? (error instanceof Error ? error.message : "unknown error")})`,
    "set GIVEKIT_CAMPAIGNS to the campaigns file itself (a JSON file, not a folder)",
  );
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
    throw unreadableCampaigns(path, error);
  }
  const parsed = CampaignsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? describePath(raw, issue.path) : "(file)";
    const message =
      issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : issue.message;
    throw new ConfigError("GIVEKIT_CAMPAIGNS", `${path}: ${where}: ${message}`, CAMPAIGNS_CONTENT_FIX);
  }
  const seen = new Set<string>();
  parsed.data.campaigns.forEach((campaign, index) => {
    const id = `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
    if (seen.has(id))
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: campaigns.${index}: ${id} is listed twice`,
        CAMPAIGNS_CONTENT_FIX,
      );
    seen.add(id);
    if (toCents(campaign.min_amount) > toCents(campaign.max_amount)) {
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: campaigns.${index}.min_amount: must not exceed max_amount`,
        CAMPAIGNS_CONTENT_FIX,
      );
    }
    if (Boolean(campaign.event_id) !== Boolean(campaign.event_type)) {
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: campaigns.${index}: event_id and event_type go together`,
        CAMPAIGNS_CONTENT_FIX,
      );
    }
  });
  (parsed.data.displays ?? []).forEach((display, index) => {
    if (!seen.has(`${display.shortcode}/${display.keyword.toUpperCase()}`))
      throw new ConfigError(
        "GIVEKIT_CAMPAIGNS",
        `${path}: displays.${index}: ${display.shortcode}/${display.keyword} is not one of the campaigns`,
        CAMPAIGNS_CONTENT_FIX,
      );
  });
  return parsed.data.campaigns;
}
