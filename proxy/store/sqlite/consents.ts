/** The SQLite store's consent records: never purged. */
import type Database from "better-sqlite3";
import type { ConsentRecord, NewConsent } from "../types";

/** How many texts known to be on disk are remembered (a few per campaign; more are only written again). */
const STORED_TEXTS_MAX = 1000;

export function sqliteConsents(db: Database.Database) {
  const insertConsent = db.prepare<
    [
      string,
      string | null,
      string | null,
      string | null,
      string,
      string,
      string,
      string | null,
      string | null,
      string | null,
    ]
  >(
    `INSERT INTO consent_records (mobilenumber, list, keyword, shortcode, consent_text_sha256, consented_at, ip, user_agent, page_url, consent_locale, outcome)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
  );
  const insertText = db.prepare<[string, string]>(
    "INSERT OR IGNORE INTO consent_texts (sha256, text) VALUES (?, ?)",
  );
  const updateConsent = db.prepare<[string, number]>("UPDATE consent_records SET outcome = ? WHERE id = ?");
  const selectConsents = db.prepare<[], ConsentRecord>(
    `SELECT consent_records.*, consent_texts.text AS consent_text FROM consent_records
     LEFT JOIN consent_texts ON consent_texts.sha256 = consent_records.consent_text_sha256 ORDER BY id`,
  );
  // Texts committed by this process (which alone writes the store: it holds the lock). Every
  // opt-in shows one of a few texts: its row is written once, not tried again on every record.
  const storedTexts = new Set<string>();
  return {
    insert(consent: NewConsent, now: number): number {
      if (!storedTexts.has(consent.consent_text_sha256))
        insertText.run(consent.consent_text_sha256, consent.consent_text);
      return Number(
        insertConsent.run(
          consent.mobilenumber,
          consent.list,
          consent.keyword,
          consent.shortcode,
          consent.consent_text_sha256,
          new Date(now).toISOString(),
          consent.ip,
          consent.user_agent,
          consent.page_url,
          consent.consent_locale ?? null,
        ).lastInsertRowid,
      );
    },
    /**
     * The text of `sha256` is on disk: the write that inserted it was committed (never before,
     * so a text whose transaction was rolled back is written again by the next record).
     */
    textStored(sha256: string): void {
      if (storedTexts.size >= STORED_TEXTS_MAX) storedTexts.clear();
      storedTexts.add(sha256);
    },
    finish(id: number, outcome: string): void {
      updateConsent.run(outcome, id);
    },
    all: () => selectConsents.all(),
  };
}
