/**
 * What a wall may show of one upstream report row. This is the one place that decides it:
 * only gifts the upstream collected, only where the donor let the gift onto the pledge wall,
 * "Anonymous" where the donor asked, otherwise first name and last initial. Nothing else of
 * the donor (e-mail, phone, address, message, dedication) is ever copied out of the row.
 */
import { ANONYMOUS } from "../../contract/gala";

/** The row fields the wall reads; report rows are loose, so each is checked here. */
export interface WallSourceRow {
  transaction_id: string;
  donation_amount: string;
  status: string;
  anonymous: boolean;
  first_name: string | null;
  last_name: string | null;
  peer_fundraiser_id: string | null;
  peer_fundraiser_team_id: string | null;
  created_at: string;
  pledge_wall?: unknown;
}

export interface WallEntry {
  id: string;
  name: string;
  amount: string;
  fundraiser_id: string | null;
  team_id: string | null;
  at: string;
}

export { ANONYMOUS };
const FIRST_NAME_MAX = 40;

/** Control and format characters (bidi controls, zero-width marks): dropped from any name shown. */
const UNSHOWABLE = /[\p{Cc}\p{Cf}]/gu;

const clean = (value: string | null): string =>
  (value ?? "").replace(UNSHOWABLE, "").replace(/\s+/gu, " ").trim();

/** The wall is opt-in: only an explicit yes ("true" from the upstream, or true) shows a gift. */
const onWall = (value: unknown): boolean => value === true || value === "true" || value === 1;

/** "Ana G." from Ana / García; a missing part is left out; no name at all reads "Anonymous". */
export function wallName(first: string | null, last: string | null): string {
  const firstWord = [...clean(first)].slice(0, FIRST_NAME_MAX).join("").trim();
  const initial = [...clean(last)][0];
  const shown = [firstWord, initial ? `${initial.toLocaleUpperCase()}.` : ""].filter(Boolean).join(" ");
  return shown || ANONYMOUS;
}

/** One row as the wall shows it, or null when the row must not appear at all. */
export function wallEntry(row: WallSourceRow): WallEntry | null {
  if (row.status !== "collected" || !onWall(row.pledge_wall)) return null;
  return {
    id: row.transaction_id,
    name: row.anonymous ? ANONYMOUS : wallName(row.first_name, row.last_name),
    amount: row.donation_amount,
    fundraiser_id: row.peer_fundraiser_id,
    team_id: row.peer_fundraiser_team_id,
    at: row.created_at,
  };
}
