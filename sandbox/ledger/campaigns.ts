/** An account's keywords (by target, event or id), their forms, and its subscriber lists. */
import type Database from "better-sqlite3";
import { type KeywordRow, toKeyword } from "./rows";
import type { Form } from "./types";

export function ledgerCampaigns(db: Database.Database) {
  const q = {
    keywordByTarget: db.prepare(
      "SELECT * FROM keywords WHERE account_id = ? AND shortcode = ? AND upper(keyword) = upper(?)",
    ),
    keywordByEvent: db.prepare(
      "SELECT * FROM keywords WHERE account_id = ? AND event_id = ? AND event_type = ?",
    ),
    keywordById: db.prepare("SELECT * FROM keywords WHERE account_id = ? AND id = ?"),
    keywordAnywhere: db.prepare("SELECT * FROM keywords WHERE shortcode = ? AND upper(keyword) = upper(?)"),
    keywords: db.prepare("SELECT * FROM keywords WHERE account_id = ? ORDER BY rowid"),
    forms: db.prepare("SELECT id, name, is_default FROM forms WHERE keyword_id = ? ORDER BY position"),
    list: db.prepare("SELECT name FROM lists WHERE account_id = ? AND lower(name) = lower(?)"),
  };
  return {
    keywordByTarget: (accountId: number, shortcode: string, keyword: string) => {
      const row = q.keywordByTarget.get(accountId, shortcode, keyword) as KeywordRow | undefined;
      return row && toKeyword(row);
    },
    keywordByEvent: (accountId: number, eventId: string, eventType: string) => {
      const row = q.keywordByEvent.get(accountId, eventId, eventType) as KeywordRow | undefined;
      return row && toKeyword(row);
    },
    keywordById: (accountId: number, id: string) => {
      const row = q.keywordById.get(accountId, id) as KeywordRow | undefined;
      return row && toKeyword(row);
    },
    /** Sandbox-only routes: the keyword in whichever account has it. */
    keywordAnywhere: (shortcode: string, keyword: string) => {
      const row = q.keywordAnywhere.get(shortcode, keyword) as KeywordRow | undefined;
      return row && toKeyword(row);
    },
    keywords: (accountId: number) => (q.keywords.all(accountId) as KeywordRow[]).map(toKeyword),
    forms: (keywordId: string): Form[] =>
      (q.forms.all(keywordId) as { id: string; name: string; is_default: number }[]).map((row) => ({
        id: row.id,
        name: row.name,
        isDefault: row.is_default === 1,
      })),
    /** The list's name as the account spells it, or undefined. */
    list: (accountId: number, name: string) =>
      (q.list.get(accountId, name) as { name: string } | undefined)?.name,
  };
}
