/**
 * The SQLite store's listings for the command line: a page at a time, from where the last page
 * ended (keyset, on the indexes that order them), so a listing of any size reads in constant memory.
 */
import type Database from "better-sqlite3";
import type { AttemptFilter, AttemptRecord, ConsentRecord } from "../types";

export function sqliteListings(db: Database.Database) {
  const statements = new Map<string, Database.Statement>();
  /** Each shape of query prepared once (a filter's absent terms are left out, so the planner sees them gone). */
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const cursorOf = db.prepare<[string], { created_at: string; rowid: number }>(
    "SELECT created_at, rowid FROM donation_attempts WHERE reference = ?",
  );

  return {
    attemptsPage(filter: AttemptFilter, after: string | null, limit: number): AttemptRecord[] {
      const where: string[] = [];
      const values: Record<string, unknown> = { limit };
      if (filter.state) {
        where.push("state = @state");
        values.state = filter.state;
      }
      if (filter.since) {
        where.push("created_at >= @since");
        values.since = filter.since;
      }
      if (after !== null) {
        const cursor = cursorOf.get(after);
        if (!cursor) return [];
        where.push("created_at >= @at AND (created_at > @at OR rowid > @row)");
        Object.assign(values, { at: cursor.created_at, row: cursor.rowid });
      }
      const sql = `SELECT * FROM donation_attempts ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
        ORDER BY created_at, rowid LIMIT @limit`;
      return prepared(sql).all(values) as AttemptRecord[];
    },

    consentsPage(since: string | null, after: number | null, limit: number): ConsentRecord[] {
      return prepared(
        `SELECT consent_records.*, consent_texts.text AS consent_text FROM consent_records
         LEFT JOIN consent_texts ON consent_texts.sha256 = consent_records.consent_text_sha256
         WHERE consent_records.id > @after AND (@since IS NULL OR consented_at >= @since) ORDER BY consent_records.id LIMIT @limit`,
      ).all({ after: after ?? 0, since, limit }) as ConsentRecord[];
    },
  };
}
