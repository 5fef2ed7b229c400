/** Rows as SQLite returns them, and the records they become. */
import { createHash } from "node:crypto";
import type { Fundraiser, Keyword, Team } from "./types";

export interface KeywordRow {
  id: string;
  account_id: number;
  shortcode: string;
  keyword: string;
  peer: number;
  event_id: string | null;
  event_type: string | null;
}
export interface FundraiserRow {
  id: string;
  account_id: number;
  keyword_id: string;
  name: string;
  team_id: string | null;
  is_root: number;
  hidden: number;
}
export interface TeamRow {
  id: string;
  account_id: number;
  keyword_id: string;
  name: string;
  captain_id: string | null;
  goal: string | null;
}

export const toKeyword = (row: KeywordRow): Keyword => ({
  id: row.id,
  accountId: row.account_id,
  shortcode: row.shortcode,
  keyword: row.keyword,
  peer: row.peer === 1,
  eventId: row.event_id,
  eventType: row.event_type,
});
export const toFundraiser = (row: FundraiserRow): Fundraiser => ({
  id: row.id,
  accountId: row.account_id,
  keywordId: row.keyword_id,
  name: row.name,
  teamId: row.team_id,
  isRoot: row.is_root === 1,
  hidden: row.hidden === 1,
});
export const toTeam = (row: TeamRow): Team => ({
  id: row.id,
  accountId: row.account_id,
  keywordId: row.keyword_id,
  name: row.name,
  captainId: row.captain_id,
  goal: row.goal,
});

/** Session and payment tokens are kept only as hashes, so the database file holds no usable secret. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
