/** The SQLite store's form step counts, ops counts and dashboard access (proxy/store/types.ts FormCountStore, OpsCountStore, DashboardAccessStore). */
import type Database from "better-sqlite3";
import { cappedChannels } from "../form-counts";
import type { FormStepCount, GivingCount, OpsCount } from "../types";

const HOUR_MS = 3_600_000;

export function sqliteFormCounts(db: Database.Database) {
  const channels = db.prepare<[string, number], { channel: string }>(
    "SELECT DISTINCT channel FROM form_step_counts WHERE campaign = ? AND hour = ?",
  );
  const add = db.prepare(
    `INSERT INTO form_step_counts (campaign, hour, step, reason, channel, device, count)
     VALUES (@campaign, @hour, @step, @reason, @channel, @device, @count)
     ON CONFLICT (campaign, hour, step, reason, channel, device) DO UPDATE SET count = count + excluded.count`,
  );
  const all = db.prepare<[number, number], FormStepCount>(
    "SELECT campaign, hour, step, reason, channel, device, count FROM form_step_counts WHERE hour BETWEEN ? AND ?",
  );
  const ofCampaign = db.prepare<[number, number, string], FormStepCount>(
    "SELECT campaign, hour, step, reason, channel, device, count FROM form_step_counts WHERE hour BETWEEN ? AND ? AND campaign = ?",
  );
  const addOps = db.prepare(
    `INSERT INTO ops_counts (campaign, hour, kind, label, count) VALUES (@campaign, @hour, @kind, @label, @count)
     ON CONFLICT (campaign, hour, kind, label) DO UPDATE SET count = count + excluded.count`,
  );
  const allOps = db.prepare<[number, number], OpsCount>(
    "SELECT campaign, hour, kind, label, count FROM ops_counts WHERE hour BETWEEN ? AND ?",
  );
  const opsOfCampaign = db.prepare<[number, number, string], OpsCount>(
    "SELECT campaign, hour, kind, label, count FROM ops_counts WHERE hour BETWEEN ? AND ? AND campaign IN (?, '*')",
  );
  // Row values: both tables are WITHOUT ROWID, so a batch is named by its keys (oldest hours first).
  const pruneSteps = db.prepare(
    `DELETE FROM form_step_counts WHERE (campaign, hour, step, reason, channel, device) IN
       (SELECT campaign, hour, step, reason, channel, device FROM form_step_counts WHERE hour < ? ORDER BY hour LIMIT ?)`,
  );
  const pruneOps = db.prepare(
    `DELETE FROM ops_counts WHERE (campaign, hour, kind, label) IN
       (SELECT campaign, hour, kind, label FROM ops_counts WHERE hour < ? ORDER BY hour LIMIT ?)`,
  );
  // Over the (state, created_at) index; created_at is ISO 8601 (UTC), so its first 13 characters are its hour.
  const giving = db.prepare<[string, string], Omit<GivingCount, "hour"> & { at: string }>(
    `SELECT shortcode || '/' || upper(keyword) AS campaign, substr(created_at, 1, 13) AS at, state,
       recurring_frequency IS NOT NULL AS recurring, CAST(fee_amount AS REAL) > 0 AS feeCovered,
       count(*) AS attempts, sum(CAST(round(CAST(amount AS REAL) * 100) AS INTEGER)) AS cents
     FROM donation_attempts WHERE state IN ('succeeded', 'declined', 'sending', 'unknown') AND created_at >= ? AND created_at < ?
     GROUP BY 1, 2, 3, 4, 5`,
  );
  const unknown = db.prepare<[], { n: number }>(
    "SELECT count(*) AS n FROM donation_attempts WHERE state = 'unknown'",
  );
  const generation = db.prepare<[], { generation: number }>("SELECT generation FROM dashboard_generation");
  const revoke = db.prepare<[], { generation: number }>(
    "UPDATE dashboard_generation SET generation = generation + 1 RETURNING generation",
  );
  const forgetSpent = db.prepare("DELETE FROM dashboard_invites WHERE expires_at <= ?");
  const spend = db.prepare("INSERT OR IGNORE INTO dashboard_invites (id, expires_at) VALUES (?, ?)");
  return {
    // Run inside the group commit's write: one writer, so the cap is exact.
    add(counts: readonly FormStepCount[], channelCap: number) {
      for (const count of cappedChannels(counts, channelCap, (campaign, hour) =>
        channels.all(campaign, hour).map((row) => row.channel),
      ))
        add.run(count);
    },
    counts(filter: { fromHour: number; toHour: number; campaign?: string }): FormStepCount[] {
      return filter.campaign === undefined
        ? all.all(filter.fromHour, filter.toHour)
        : ofCampaign.all(filter.fromHour, filter.toHour, filter.campaign);
    },
    addOps(counts: readonly OpsCount[]) {
      for (const count of counts) addOps.run(count);
    },
    ops(filter: { fromHour: number; toHour: number; campaign?: string }): OpsCount[] {
      return filter.campaign === undefined
        ? allOps.all(filter.fromHour, filter.toHour)
        : opsOfCampaign.all(filter.fromHour, filter.toHour, filter.campaign);
    },
    giving(filter: { fromHour: number; toHour: number }): GivingCount[] {
      return giving
        .all(
          new Date(filter.fromHour * HOUR_MS).toISOString(),
          new Date((filter.toHour + 1) * HOUR_MS).toISOString(),
        )
        .map(({ at, ...row }) => ({
          ...row,
          hour: Date.parse(`${at}:00:00Z`) / HOUR_MS,
          recurring: Boolean(row.recurring),
          feeCovered: Boolean(row.feeCovered),
        }));
    },
    unknown: () => unknown.get()!.n,
    prune(beforeHour: number, limit: number): number {
      return pruneSteps.run(beforeHour, limit).changes + pruneOps.run(beforeHour, limit).changes;
    },
    generation: () => generation.get()!.generation,
    revoke: () => revoke.get()!.generation,
    spend(id: string, expiresAt: number, now: number): boolean {
      forgetSpent.run(now);
      return spend.run(id, expiresAt).changes === 1;
    },
  };
}
