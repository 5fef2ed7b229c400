/** The PostgreSQL store's consent records: kept durably before the number is sent upstream. */
import type { ConsentStore, ConsentRecord } from "../types";
import type { PgContext } from "./connection";
import { outboxInsert } from "./outbox";

export function pgConsents({ query, lazy, now }: PgContext): ConsentStore {
  return {
    async recordConsent(consent, events = []) {
      const outbox = events.length > 0 ? outboxInsert(events, 12) : null;
      const { rows } = await query<{ id: string }>(
        // The text, the record and its webhook events in one statement: one round trip, one transaction.
        `WITH text AS (
           INSERT INTO consent_texts (sha256, text) VALUES ($5, $10) ON CONFLICT (sha256) DO NOTHING
         )${outbox ? `, outbox AS (${outbox.sql})` : ""}
         INSERT INTO consent_records (mobilenumber, list, keyword, shortcode, consent_text_sha256, consented_at, ip, user_agent, page_url, consent_locale, outcome)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $11, 'pending') RETURNING id`,
        [
          consent.mobilenumber,
          consent.list,
          consent.keyword,
          consent.shortcode,
          consent.consent_text_sha256,
          new Date(now()).toISOString(),
          consent.ip,
          consent.user_agent,
          consent.page_url,
          consent.consent_text,
          consent.consent_locale ?? null,
          ...(outbox?.values ?? []),
        ],
      );
      return Number(rows[0]!.id);
    },

    async finishConsent(id, outcome) {
      await query("UPDATE consent_records SET outcome = $1 WHERE id = $2", [outcome, id], lazy);
    },

    async consents() {
      const { rows } = await query<ConsentRecord & { id: string }>(
        `SELECT consent_records.*, consent_texts.text AS consent_text FROM consent_records
         LEFT JOIN consent_texts ON consent_texts.sha256 = consent_records.consent_text_sha256 ORDER BY id`,
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },
  };
}
