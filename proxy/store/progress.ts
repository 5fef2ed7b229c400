/** What both adapters share of the progress figures (proxy/store/sqlite|postgres/progress.ts). */
import type { WallEntry } from "../campaign/wall";
import type { ProgressFigures, StoredCredits } from "./types";

/** The figures' columns, in the order both adapters read and write them. */
export const PROGRESS_COLUMNS = [
  "raised_cents",
  "donors",
  "gifts",
  "read_at",
  "full_at",
  "base_before",
  "base_cents",
  "base_gifts",
  "base_donors",
  "base_anonymous",
] as const;

/** The wall's entries as a column holds them (JSON text); anything unreadable reads as none. */
export const wallColumn = (entries: readonly WallEntry[]): string => JSON.stringify(entries);

function wallOf(value: unknown): WallEntry[] {
  if (typeof value !== "string" || value === "") return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as WallEntry[]) : [];
  } catch {
    return [];
  }
}

/** The report's sums per peer as a column holds them (JSON text). */
export const creditsColumn = (credits: StoredCredits): string => JSON.stringify(credits);

const isSums = (value: unknown): value is Record<string, number> =>
  typeof value === "object" && value !== null && Object.values(value).every(Number.isSafeInteger);

/** Null for a column never written (or unreadable): the next read sums every row again. */
function creditsOf(value: unknown): StoredCredits | null {
  if (typeof value !== "string" || value === "") return null;
  try {
    const parsed = JSON.parse(value) as Partial<StoredCredits> | null;
    const readable = (part: unknown) =>
      typeof part === "object" &&
      part !== null &&
      isSums((part as { fundraiser?: unknown }).fundraiser) &&
      isSums((part as { team?: unknown }).team);
    return parsed && readable(parsed.base) && readable(parsed.all) ? (parsed as StoredCredits) : null;
  } catch {
    return null;
  }
}

/** Donor hashes written or looked up per store call (proxy/campaign/progress.ts): a few milliseconds of work each. */
export const DONOR_BATCH = 5000;

/** A row as either database gives it (PostgreSQL's bigint comes back as a string) → figures. */
export function toProgressFigures(row: Record<string, unknown>): ProgressFigures {
  const number = (name: string) => Number(row[name] ?? 0);
  return {
    campaign: String(row.campaign),
    raised_cents: number("raised_cents"),
    donors: number("donors"),
    gifts: number("gifts"),
    read_at: number("read_at"),
    full_at: number("full_at"),
    base_before: number("base_before"),
    base_cents: number("base_cents"),
    base_gifts: number("base_gifts"),
    base_donors: number("base_donors"),
    base_anonymous: number("base_anonymous"),
    failures: number("failures"),
    retry_at: number("retry_at"),
    wall: wallOf(row.wall),
    credits: creditsOf(row.credits),
  };
}
