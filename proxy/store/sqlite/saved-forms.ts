/**
 * The SQLite store's saved forms (proxy/store/types.ts SavedFormStore): every version a row, a
 * save adding the next only when the latest is the one it started from. One proxy holds the
 * store and writes in order, so the check and the insert cannot be overtaken.
 */
import type Database from "better-sqlite3";
import type { StoredFormVersion } from "../types";

interface Row {
  name: string;
  version: number;
  campaign: string;
  design: string;
  author: string;
  saved_at: number;
}

const toVersion = (row: Row): StoredFormVersion => ({
  name: row.name,
  version: row.version,
  campaign: row.campaign,
  design: row.design,
  author: row.author,
  savedAt: row.saved_at,
});

export function sqliteSavedForms(db: Database.Database) {
  const latest = db.prepare<[string], Row>(
    "SELECT * FROM saved_forms WHERE name = ? ORDER BY version DESC LIMIT 1",
  );
  const versions = db.prepare<[string, number], Row>(
    "SELECT * FROM saved_forms WHERE name = ? ORDER BY version DESC LIMIT ?",
  );
  const everyLatest = db.prepare<[], Row>(
    `SELECT f.* FROM saved_forms f
     JOIN (SELECT name, MAX(version) AS version FROM saved_forms GROUP BY name) m USING (name, version)
     ORDER BY f.name`,
  );
  const insert = db.prepare<[Row]>(
    `INSERT INTO saved_forms (name, version, campaign, design, author, saved_at)
     VALUES (@name, @version, @campaign, @design, @author, @saved_at)`,
  );
  return {
    save(form: Omit<StoredFormVersion, "version" | "savedAt">, after: number, now: number) {
      const current = latest.get(form.name);
      if ((current?.version ?? 0) !== after) return { changed: current ? toVersion(current) : null };
      const row: Row = { ...form, version: after + 1, saved_at: now };
      insert.run(row);
      return { saved: toVersion(row) };
    },
    latest: (name: string) => {
      const row = latest.get(name);
      return row ? toVersion(row) : null;
    },
    versions: (name: string, limit: number) => versions.all(name, limit).map(toVersion),
    all: () => everyLatest.all().map(toVersion),
  };
}
