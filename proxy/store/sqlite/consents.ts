/** The SQLite store's consent records: never purged. */
import type Database from "better-sqlite3";
import type { ConsentRecord, NewConsent } from "../types";

export function sqliteConsents(db: Database.Database) {
  const insertConsent = db.prepare(
    `INSERT INTO consent_records (mobilenumber, list, keyword, shortcode, consent_text_sha256, consented_at, ip, user_agent, page_url, outcome)
     VALUES (@mobilenumber, @list, @keyword, @shortcode, @consent_text_sha256, @consented_at, @ip, @user_agent, @page_url, 'pending')`,
  );
  const insertText = db.prepare<[string, string]>(
    "INSERT OR IGNORE INTO consent_texts (sha256, text) VALUES (?, ?)",
  );
  const updateConsent = db.prepare<[string, number]>("UPDATE consent_records SET outcome = ? WHERE id = ?");
  const selectConsents = db.prepare<[], ConsentRecord>(
    `SELECT consent_records.*, consent_texts.text AS consent_text FROM consent_records
     LEFT JOIN consent_texts ON consent_texts.sha256 = consent_records.consent_text_sha256 ORDER BY id`,
  );
  return {
    insert(consent: NewConsent, now: number): number {
      insertText.run(consent.consent_text_sha256, consent.consent_text);
      return Number(
        insertConsent.run({ ...withoutText(consent), consented_at: new Date(now).toISOString() })
          .lastInsertRowid,
      );
    },
    finish(id: number, outcome: string): void {
      updateConsent.run(outcome, id);
    },
    all: () => selectConsents.all(),
  };
}

/** better-sqlite3 refuses named parameters a statement does not use. */
function withoutText({ consent_text: _text, ...record }: NewConsent) {
  return record;
}
