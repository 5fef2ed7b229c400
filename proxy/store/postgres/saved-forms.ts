/**
 * The PostgreSQL store's saved forms (proxy/store/types.ts SavedFormStore), shared by every
 * proxy. A save inserts the next version only while the latest is the one it started from; two
 * proxies saving the same form at once both pass that check, and the primary key lets one row
 * in: the other is told of it. Durable (the main pool): a change staff saw saved stays saved.
 */
import type { SavedFormStore, StoredFormVersion } from "../types";
import type { PgContext } from "./connection";

interface Row {
  name: string;
  version: number;
  campaign: string;
  design: string;
  author: string;
  saved_at: string;
}

const toVersion = (row: Row): StoredFormVersion => ({
  name: row.name,
  version: Number(row.version),
  campaign: row.campaign,
  design: row.design,
  author: row.author,
  savedAt: Number(row.saved_at),
});

const LATEST = "SELECT * FROM saved_forms WHERE name = $1 ORDER BY version DESC LIMIT 1";

export function pgSavedForms({ query, now }: PgContext): SavedFormStore {
  const latest = async (name: string) => {
    const { rows } = await query<Row>(LATEST, [name], undefined, "givekit-saved-form");
    return rows[0] ? toVersion(rows[0]) : null;
  };
  return {
    async saveFormVersion(form, after) {
      const { rows } = await query<Row>(
        `INSERT INTO saved_forms (name, version, campaign, design, author, saved_at)
         SELECT $1, $2::integer + 1, $3, $4, $5, $6
         WHERE COALESCE((SELECT MAX(version) FROM saved_forms WHERE name = $1), 0) = $2::integer
         ON CONFLICT (name, version) DO NOTHING
         RETURNING *`,
        [form.name, after, form.campaign, form.design, form.author, now()],
      );
      return rows[0] ? { saved: toVersion(rows[0]) } : { changed: await latest(form.name) };
    },
    savedForm: latest,
    async savedFormVersions(name, limit) {
      const { rows } = await query<Row>(
        "SELECT * FROM saved_forms WHERE name = $1 ORDER BY version DESC LIMIT $2",
        [name, limit],
      );
      return rows.map(toVersion);
    },
    async savedForms() {
      const { rows } = await query<Row>(
        "SELECT DISTINCT ON (name) * FROM saved_forms ORDER BY name, version DESC",
      );
      return rows.map(toVersion);
    },
  };
}
