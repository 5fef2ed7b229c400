/**
 * The PostgreSQL store's listings for the command line: a page at a time, from where the last
 * page ended (keyset, on the indexes that order them), so a listing of any size reads in
 * constant memory, in the proxy's memory and the database's.
 */
import type { ConsentRecord, AttemptRecord, ListingStore } from "../types";
import { ATTEMPT_COLUMNS } from "./attempts";
import type { PgContext } from "./connection";

export function pgListings({ query }: PgContext): ListingStore {
  return {
    async attemptsPage(filter, after, limit) {
      const values: unknown[] = [limit];
      const where: string[] = [];
      const bind = (value: unknown) => `$${values.push(value)}`;
      if (filter.state) where.push(`state = ${bind(filter.state)}`);
      if (filter.since) where.push(`created_at >= ${bind(filter.since)}`);
      if (after !== null) {
        const { rows } = await query<{ created_at: string; seq: string }>(
          "SELECT created_at, seq FROM donation_attempts WHERE reference = $1",
          [after],
        );
        if (!rows[0]) return [];
        const at = bind(rows[0].created_at);
        where.push(`created_at >= ${at} AND (created_at > ${at} OR seq > ${bind(rows[0].seq)})`);
      }
      const { rows } = await query<AttemptRecord>(
        `SELECT ${ATTEMPT_COLUMNS} FROM donation_attempts ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY created_at, seq LIMIT $1`,
        values,
      );
      return rows;
    },

    async consentsPage(since, after, limit) {
      const { rows } = await query<ConsentRecord & { id: string }>(
        `SELECT consent_records.*, consent_texts.text AS consent_text FROM consent_records
         LEFT JOIN consent_texts ON consent_texts.sha256 = consent_records.consent_text_sha256
         WHERE consent_records.id > $1 AND ($2::text IS NULL OR consented_at >= $2) ORDER BY consent_records.id LIMIT $3`,
        [after ?? 0, since, limit],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },
  };
}
