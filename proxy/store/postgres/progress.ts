/**
 * The PostgreSQL store's progress figures (proxy/store/types.ts ProgressStore), shared by every
 * proxy. On the lazy pool: a database crash loses at most a read the next refresh repeats.
 */
import { creditsColumn, PROGRESS_COLUMNS, toProgressFigures, wallColumn } from "../progress";
import type { ProgressStore } from "../types";
import type { PgContext } from "./connection";

export function pgProgress({ query, lazy, now }: PgContext): ProgressStore {
  return {
    async progressFigures(campaign) {
      const { rows } = await query<Record<string, unknown>>(
        "SELECT * FROM progress_figures WHERE campaign = $1",
        [campaign],
        lazy,
        "givekit-progress-figures",
      );
      return rows[0] && toProgressFigures(rows[0]);
    },
    async claimProgressRead(campaign, token, leaseMs, staleBefore, pastBackoff = false) {
      const at = now();
      const { rows } = await query<{ lease_token: string }>(
        `INSERT INTO progress_figures (campaign, lease_token, lease_until) VALUES ($1, $2, $3)
         ON CONFLICT (campaign) DO UPDATE SET lease_token = excluded.lease_token, lease_until = excluded.lease_until
         WHERE progress_figures.lease_until <= $4 AND (progress_figures.retry_at <= $4 OR $6)
           AND progress_figures.read_at <= $5
         RETURNING lease_token`,
        [campaign, token, at + leaseMs, at, Math.min(staleBefore, Number.MAX_SAFE_INTEGER), pastBackoff],
        lazy,
      );
      return rows[0]?.lease_token === token;
    },
    async saveProgress(campaign, token, figures, donors) {
      const values = PROGRESS_COLUMNS.map((name) => figures[name]);
      const set = PROGRESS_COLUMNS.map((name, i) => `${name} = $${i + 3}`).join(", ");
      const wallAt = PROGRESS_COLUMNS.length + 3;
      const saved = await query(
        `UPDATE progress_figures SET ${set}, wall = $${wallAt}, credits = $${wallAt + 1},
           donors_from = CASE WHEN $${wallAt + 2} THEN donors_saved + 1 ELSE donors_from END, donors_saved = donors_saved + 1,
           lease_token = NULL, lease_until = 0, failures = 0, retry_at = 0
         WHERE campaign = $1 AND lease_token = $2`,
        [campaign, token, ...values, wallColumn(figures.wall), creditsColumn(figures.credits), donors.reset],
        lazy,
      );
      return saved.rowCount === 1;
    },
    async stageProgressDonors(campaign, token, donors) {
      // The lease and the insert in one statement: a read whose lease was taken over writes nothing.
      const { rows } = await query<{ held: boolean }>(
        `WITH held AS (SELECT donors_saved + 1 AS seq FROM progress_figures WHERE campaign = $1 AND lease_token = $2),
           added AS (INSERT INTO progress_donors (campaign, donor, seq)
             SELECT $1, donor, held.seq FROM held, unnest($3::text[]) AS donor ON CONFLICT DO NOTHING)
         SELECT EXISTS (SELECT 1 FROM held) AS held`,
        [campaign, token, donors],
        lazy,
      );
      return rows[0]?.held === true;
    },
    async pruneProgressDonors(campaign, token, limit) {
      const pruned = await query(
        `DELETE FROM progress_donors WHERE ctid IN (
           SELECT d.ctid FROM progress_donors d JOIN progress_figures f ON f.campaign = d.campaign
           WHERE d.campaign = $1 AND f.lease_token = $2 AND (d.seq < f.donors_from OR d.seq > f.donors_saved)
           LIMIT $3)`,
        [campaign, token, limit],
        lazy,
      );
      return pruned.rowCount ?? 0;
    },
    async failProgressRead(campaign, token, retryAt) {
      await query(
        `UPDATE progress_figures SET lease_token = NULL, lease_until = 0, failures = failures + 1, retry_at = $3
         WHERE campaign = $1 AND lease_token = $2`,
        [campaign, token, retryAt],
        lazy,
      );
    },
    async knownDonors(campaign, donors) {
      if (donors.length === 0) return 0;
      const { rows } = await query<{ known: string }>(
        `SELECT count(DISTINCT d.donor) AS known FROM progress_donors d JOIN progress_figures f ON f.campaign = d.campaign
         WHERE d.campaign = $1 AND d.donor = ANY($2::text[]) AND d.seq BETWEEN f.donors_from AND f.donors_saved`,
        [campaign, donors],
        lazy,
      );
      return Number(rows[0]?.known ?? 0);
    },
  };
}
