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
       donors_from = CASE WHEN @reset = 1 THEN donors_saved + 1 ELSE donors_from END, donors_saved = donors_saved + 1,
       lease_token = NULL, lease_until = 0, failures = 0, retry_at = 0
     WHERE campaign = @campaign AND lease_token = @token`,
  );
  const fail = db.prepare(
    `UPDATE progress_figures SET lease_token = NULL, lease_until = 0, failures = failures + 1, retry_at = ?
     WHERE campaign = ? AND lease_token = ?`,
  );
  const leaseHeld = db.prepare<[string, string], { donors_from: number; donors_saved: number }>(
    "SELECT donors_from, donors_saved FROM progress_figures WHERE campaign = ? AND lease_token = ?",
  );
  const counted = db.prepare<[string], { donors_from: number; donors_saved: number }>(
    "SELECT donors_from, donors_saved FROM progress_figures WHERE campaign = ?",
  );
  const addDonors = db.prepare<[string, number, string]>(
    "INSERT OR IGNORE INTO progress_donors (campaign, donor, seq) SELECT ?, value, ? FROM json_each(?)",
  );
  const prune = db.prepare<[{ campaign: string; from: number; saved: number; limit: number }]>(
    `DELETE FROM progress_donors WHERE (campaign, donor, seq) IN (
       SELECT campaign, donor, seq FROM progress_donors
       WHERE campaign = @campaign AND (seq < @from OR seq > @saved) LIMIT @limit)`,
  );
  const known = db.prepare<[string, string, number, number], { one: number }>(
    "SELECT 1 AS one FROM progress_donors WHERE campaign = ? AND donor = ? AND seq BETWEEN ? AND ? LIMIT 1",
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
    save: (campaign: string, token: string, values: ProgressSave, donors: { reset: boolean }) =>
      save.run({
        ...values,
        wall: wallColumn(values.wall),
        credits: creditsColumn(values.credits),
        reset: donors.reset ? 1 : 0,
        campaign,
        token,
      }).changes === 1,
    /** The read `token` holds writes its donors under the number after the last saved read's. */
    stage(campaign: string, token: string, donors: readonly string[]): boolean {
      const held = leaseHeld.get(campaign, token);
      if (!held) return false;
      addDonors.run(campaign, held.donors_saved + 1, JSON.stringify(donors));
      return true;
    },
    prune(campaign: string, token: string, limit: number): number {
      const held = leaseHeld.get(campaign, token);
      if (!held) return 0;
      return prune.run({ campaign, from: held.donors_from, saved: held.donors_saved, limit }).changes;
    },
    fail: (campaign: string, token: string, retryAt: number) => {
      fail.run(retryAt, campaign, token);
    },
    known(campaign: string, donors: readonly string[]) {
      const range = counted.get(campaign);
      if (!range) return 0;
      let count = 0;
      for (const donor of donors)
        if (known.get(campaign, donor, range.donors_from, range.donors_saved)) count++;
      return count;
    },
  };
}
