/**
 * The PostgreSQL store's form step counts and dashboard access (proxy/store/types.ts
 * FormCountStore, DashboardAccessStore), shared by every proxy. Counts are on the lazy pool: a
 * database crash may lose the last moment's steps, never a gift. A campaign hour's counts are
 * added under an advisory lock of that hour, so the channel cap holds across proxies.
 */
import { cappedChannels } from "../form-counts";
import type {
  DashboardAccessStore,
  FormCountStore,
  FormStepCount,
  GivingCount,
  GivingCountStore,
  OpsCount,
  OpsCountStore,
} from "../types";
import type { PgContext } from "./connection";

const HOUR_MS = 3_600_000;
const COLUMNS = "campaign, hour, step, reason, channel, device, count";

export function pgFormCounts({
  query,
  transaction,
  lazy,
  pool,
  now,
}: PgContext): FormCountStore & OpsCountStore & GivingCountStore & DashboardAccessStore {
  return {
    async addFormCounts(counts, channelCap) {
      if (counts.length === 0) return;
      const hours = [...new Set(counts.map((count) => `${count.campaign}\n${count.hour}`))].toSorted();
      await transaction(async (client) => {
        // In a fixed order, so two proxies adding the same hours never wait on each other.
        for (const hour of hours)
          await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 46))", [hour]);
        const known = new Map<string, string[]>();
        for (const hour of hours) {
          const [campaign, at] = hour.split("\n");
          const { rows } = await client.query<{ channel: string }>(
            "SELECT DISTINCT channel FROM form_step_counts WHERE campaign = $1 AND hour = $2",
            [campaign, Number(at)],
          );
          known.set(
            hour,
            rows.map((row) => row.channel),
          );
        }
        const capped = cappedChannels(
          counts,
          channelCap,
          (campaign, hour) => known.get(`${campaign}\n${hour}`) ?? [],
        );
        await client.query(
          `INSERT INTO form_step_counts AS f (${COLUMNS})
           SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
           ON CONFLICT (campaign, hour, step, reason, channel, device) DO UPDATE SET count = f.count + excluded.count`,
          [
            capped.map((c) => c.campaign),
            capped.map((c) => c.hour),
            capped.map((c) => c.step),
            capped.map((c) => c.reason),
            capped.map((c) => c.channel),
            capped.map((c) => c.device),
            capped.map((c) => c.count),
          ],
        );
      }, lazy);
    },
    async formCounts({ fromHour, toHour, campaign }) {
      const { rows } = await query<FormStepCount & { count: string }>(
        `SELECT ${COLUMNS} FROM form_step_counts WHERE hour BETWEEN $1 AND $2 AND ($3::text IS NULL OR campaign = $3)`,
        [fromHour, toHour, campaign ?? null],
        lazy,
      );
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },
    async addOpsCounts(counts) {
      if (counts.length === 0) return;
      // Summed here first: one statement may not touch the same row twice.
      const merged = new Map<string, OpsCount>();
      for (const count of counts) {
        const key = [count.campaign, count.hour, count.kind, count.label].join("\n");
        const before = merged.get(key);
        if (before) before.count += count.count;
        else merged.set(key, { ...count });
      }
      const rows = [...merged.values()];
      await query(
        `INSERT INTO ops_counts AS o (campaign, hour, kind, label, count)
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[])
         ON CONFLICT (campaign, hour, kind, label) DO UPDATE SET count = o.count + excluded.count`,
        [
          rows.map((r) => r.campaign),
          rows.map((r) => r.hour),
          rows.map((r) => r.kind),
          rows.map((r) => r.label),
          rows.map((r) => r.count),
        ],
        lazy,
      );
    },
    async opsCounts({ fromHour, toHour, campaign }) {
      const { rows } = await query<OpsCount & { count: string }>(
        `SELECT campaign, hour, kind, label, count FROM ops_counts
         WHERE hour BETWEEN $1 AND $2 AND ($3::text IS NULL OR campaign = $3 OR campaign = '*')`,
        [fromHour, toHour, campaign ?? null],
        lazy,
      );
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },
    async givingCounts({ fromHour, toHour }) {
      // Over the (state, created_at) index; created_at is ISO 8601 (UTC), so its first 13 characters are its hour.
      const { rows } = await query<
        Omit<GivingCount, "hour"> & { at: string; attempts: string; cents: string }
      >(
        `SELECT shortcode || '/' || upper(keyword) AS campaign, substr(created_at, 1, 13) AS at, state,
           recurring_frequency IS NOT NULL AS recurring, fee_amount::numeric > 0 AS "feeCovered",
           count(*) AS attempts, sum(round(amount::numeric * 100))::bigint AS cents
         FROM donation_attempts WHERE state IN ('succeeded', 'declined', 'sending', 'unknown') AND created_at >= $1 AND created_at < $2
         GROUP BY 1, 2, 3, 4, 5`,
        [new Date(fromHour * HOUR_MS).toISOString(), new Date((toHour + 1) * HOUR_MS).toISOString()],
        lazy,
      );
      return rows.map(({ at, ...row }) => ({
        ...row,
        hour: Date.parse(`${at}:00:00Z`) / HOUR_MS,
        attempts: Number(row.attempts),
        cents: Number(row.cents),
      }));
    },
    async unknownAttempts() {
      const { rows } = await query<{ n: string }>(
        "SELECT count(*) AS n FROM donation_attempts WHERE state = 'unknown'",
        [],
        lazy,
      );
      return Number(rows[0]!.n);
    },
    async pruneDashboardCounts(beforeHour, limit) {
      // By ctid: a batch of the oldest hours' rows, so no statement holds a long lock on the table.
      let pruned = 0;
      for (const table of ["form_step_counts", "ops_counts"]) {
        const { rowCount } = await query(
          `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE hour < $1 ORDER BY hour LIMIT $2)`,
          [beforeHour, limit],
          lazy,
        );
        pruned += rowCount ?? 0;
      }
      return pruned;
    },
    async dashboardGeneration() {
      const { rows } = await query<{ generation: number }>(
        "SELECT generation FROM dashboard_generation",
        [],
        pool,
      );
      return rows[0]!.generation;
    },
    async revokeDashboard() {
      const { rows } = await query<{ generation: number }>(
        "UPDATE dashboard_generation SET generation = generation + 1 RETURNING generation",
        [],
        pool,
      );
      return rows[0]!.generation;
    },
    async spendDashboardInvite(id, expiresAt) {
      return transaction(async (client) => {
        await client.query("DELETE FROM dashboard_invites WHERE expires_at <= $1", [now()]);
        const spent = await client.query(
          "INSERT INTO dashboard_invites (id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
          [id, expiresAt],
        );
        return spent.rowCount === 1;
      });
    },
  };
}
