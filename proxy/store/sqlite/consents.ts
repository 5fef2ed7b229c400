/** The SQLite store's consent records: never purged. */
import type Database from "better-sqlite3";
import type { ConsentRecord, NewConsent } from "../types";

export function sqliteConsents(db: Database.Database) {
  const insertConsent = db.prepare(
    `INSERT INTO consent_records (mobilenumber, list, keyword, shortcode, consent_text_sha256, consented_at, ip, user_agent, page_url, outcome)
     VALUES (@mobilenumber, @list, @keyword, @shortcode, @consent_text_sha256, @consented_at, @ip, @user_agent, @page_url, 'pending')`,
  );
  const updateConsent = db.prepare<[string, number]>("UPDATE consent_records SET outcome = ? WHERE id = ?");
  const selectConsents = db.prepare<[], ConsentRecord>("SELECT * FROM consent_records ORDER BY id");
  return {
    insert(consent: NewConsent, now: number): number {
      return Number(
        insertConsent.run({ ...consent, consented_at: new Date(now).toISOString() }).lastInsertRowid,
      );
    },
    finish(id: number, outcome: string): void {
      updateConsent.run(outcome, id);
    },
    all: () => selectConsents.all(),
  };
}
