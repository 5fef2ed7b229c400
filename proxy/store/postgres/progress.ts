/**
 * The PostgreSQL store's progress figures (proxy/store/types.ts ProgressStore), shared by every
 * proxy. On the lazy pool: a database crash loses at most a read the next refresh repeats.
 */
import { creditsColumn, DONOR_BATCH, PROGRESS_COLUMNS, toProgressFigures, wallColumn } from "../progress";
import type { ProgressStore } from "../types";
import type { PgContext } from "./connection";

export function pgProgress({ query, transaction, lazy, now }: PgContext): ProgressStore {
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
      return transaction(async (client) => {
        const values = PROGRESS_COLUMNS.map((name) => figures[name]);
        const set = PROGRESS_COLUMNS.map((name, i) => `${name} = $${i + 3}`).join(", ");
        const wallAt = PROGRESS_COLUMNS.length + 3;
        const saved = await client.query(
          `UPDATE progress_figures SET ${set}, wall = $${wallAt}, credits = $${wallAt + 1}, lease_token = NULL, lease_until = 0, failures = 0, retry_at = 0
           WHERE campaign = $1 AND lease_token = $2`,
          [campaign, token, ...values, wallColumn(figures.wall), creditsColumn(figures.credits)],
        );
        if (saved.rowCount === 0) return false;
        if (donors.reset) await client.query("DELETE FROM progress_donors WHERE campaign = $1", [campaign]);
        for (let at = 0; at < donors.add.length; at += DONOR_BATCH) {
          await client.query(
            `INSERT INTO progress_donors (campaign, donor) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
            [campaign, donors.add.slice(at, at + DONOR_BATCH)],
          );
        }
        return true;
      }, lazy);
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
        "SELECT count(*) AS known FROM progress_donors WHERE campaign = $1 AND donor = ANY($2::text[])",
        [campaign, donors],
        lazy,
      );
      return Number(rows[0]?.known ?? 0);
    },
  };
}
