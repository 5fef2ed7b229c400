/** The SQLite store's progress figures (proxy/store/types.ts ProgressStore). */
import type Database from "better-sqlite3";
import { creditsColumn, PROGRESS_COLUMNS, toProgressFigures, wallColumn } from "../progress";
import type { ProgressFigures, ProgressSave } from "../types";

export function sqliteProgress(db: Database.Database) {
  const figures = db.prepare<[string], Record<string, unknown>>(
    "SELECT * FROM progress_figures WHERE campaign = ?",
  );
  const claim = db.prepare<[Record<string, unknown>], { lease_token: string }>(
    `INSERT INTO progress_figures (campaign, lease_token, lease_until) VALUES (@campaign, @token, @until)
     ON CONFLICT (campaign) DO UPDATE SET lease_token = excluded.lease_token, lease_until = excluded.lease_until
     WHERE progress_figures.lease_until <= @now AND (progress_figures.retry_at <= @now OR @pastBackoff = 1)
       AND progress_figures.read_at <= @staleBefore
     RETURNING lease_token`,
  );
  const save = db.prepare(
    `UPDATE progress_figures SET ${PROGRESS_COLUMNS.map((name) => `${name} = @${name}`).join(", ")}, wall = @wall, credits = @credits,
       lease_token = NULL, lease_until = 0, failures = 0, retry_at = 0
     WHERE campaign = @campaign AND lease_token = @token`,
  );
  const fail = db.prepare(
    `UPDATE progress_figures SET lease_token = NULL, lease_until = 0, failures = failures + 1, retry_at = ?
     WHERE campaign = ? AND lease_token = ?`,
  );
  const resetDonors = db.prepare("DELETE FROM progress_donors WHERE campaign = ?");
  const addDonor = db.prepare("INSERT OR IGNORE INTO progress_donors (campaign, donor) VALUES (?, ?)");
  const known = db.prepare<[string, string], { one: number }>(
    "SELECT 1 AS one FROM progress_donors WHERE campaign = ? AND donor = ?",
  );
  const saveAll = db.transaction(
    (
      campaign: string,
      token: string,
      values: ProgressSave,
      donors: { reset: boolean; add: readonly string[] },
    ) => {
      if (
        save.run({
          ...values,
          wall: wallColumn(values.wall),
          credits: creditsColumn(values.credits),
          campaign,
          token,
        }).changes === 0
      )
        return false;
      if (donors.reset) resetDonors.run(campaign);
      for (const donor of donors.add) addDonor.run(campaign, donor);
      return true;
    },
  );
  return {
    figures: (campaign: string): ProgressFigures | undefined => {
      const row = figures.get(campaign);
      return row && toProgressFigures(row);
    },
    claim: (
      campaign: string,
      token: string,
      leaseMs: number,
      staleBefore: number,
      pastBackoff: boolean,
      now: number,
    ) =>
      claim.get({
        campaign,
        token,
        until: now + leaseMs,
        now,
        staleBefore: Math.min(staleBefore, Number.MAX_SAFE_INTEGER),
        pastBackoff: pastBackoff ? 1 : 0,
      })?.lease_token === token,
    save: saveAll,
    fail: (campaign: string, token: string, retryAt: number) => {
      fail.run(retryAt, campaign, token);
    },
    known(campaign: string, donors: readonly string[]) {
      let count = 0;
      for (const donor of donors) if (known.get(campaign, donor)) count++;
      return count;
    },
  };
}
