/**
 * A campaign's progress toward its goal, from the upstream's transactions report: what its
 * keyword has collected, in integer cents, and by how many donors. Cached per campaign with
 * stale-while-revalidate: one report in flight per campaign at a time, and once there is a
 * value a slow or failing upstream never slows a page down; it only ages the value.
 */
import type { Campaign, Progress } from "../contract/api";
import { fromCents, toCents } from "../contract/money";
import type { TransactionRow } from "../contract/upstream";
import { ProblemError } from "./problem";
import type { UpstreamClient } from "./upstream/client";

export interface ProgressCache {
  /**
   * The freshest value there is; waits for the upstream only when there has never been one, or
   * when a gift made through this proxy is being counted (changed()).
   */
  get(campaign: Campaign): Promise<Progress>;
  /**
   * A gift to the campaign was charged through this proxy: read the report again soon (at most
   * every RECOUNT_MIN_MS), if anyone shows this campaign's progress.
   */
  changed(campaign: Campaign): void;
}

/**
 * Sums the collected rows. Donors are told apart by e-mail address; a row without one counts
 * as a donor of its own (the report has no donor id).
 */
export function summarize(rows: readonly TransactionRow[]): { raisedCents: number; donors: number } {
  let raisedCents = 0;
  const emails = new Set<string>();
  let withoutEmail = 0;
  for (const row of rows) {
    if (row.status !== "collected") continue;
    raisedCents += toCents(row.amount);
    const email = typeof row.email === "string" ? row.email.trim().toLowerCase() : "";
    if (email) emails.add(email);
    else withoutEmail++;
  }
  return { raisedCents, donors: emails.size + withoutEmail };
}

interface Entry {
  value?: Progress;
  /** When `value` was read, ms since the epoch. */
  readAt: number;
  loading?: Promise<Progress>;
  /** The re-read changed() started: a page asking meanwhile waits for it, not for the old value. */
  counting?: Promise<void>;
  /** A gift came since the last read began: one more read is due. */
  dirty?: boolean;
}

/**
 * However many gifts come in, a campaign's report is re-read for them at most this often: a
 * busy day costs the upstream one report every two seconds per campaign and proxy, not one a gift.
 */
export const RECOUNT_MIN_MS = 2000;

/**
 * @example
 * const progress = createProgressCache({ upstream, ttlS: 60, onError: (e) => log.warn(e) });
 * await progress.get(campaign); // {raised: "18240.00", goal: "25000.00", donors: 412, …}
 */
export function createProgressCache(options: {
  upstream: UpstreamClient;
  ttlS: number;
  /** Told of each failed refresh that a stale value covered. */
  onStale?: (campaign: Campaign, error: unknown) => void;
  now?: () => number;
}): ProgressCache {
  const { upstream, ttlS, onStale } = options;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  function load(campaign: Campaign, entry: Entry): Promise<Progress> {
    entry.loading ??= upstream
      .transactions({ shortcode: campaign.shortcode, keyword: campaign.keyword, status: "collected" })
      .then(({ rows }) => {
        const wanted = campaign.keyword.toUpperCase();
        const own = rows.filter(
          (row) => row.shortcode === campaign.shortcode && row.keyword.toUpperCase() === wanted,
        );
        const { raisedCents, donors } = summarize(own);
        entry.readAt = now();
        entry.value = {
          raised: fromCents(raisedCents),
          goal: campaign.goal_amount ?? null,
          donors,
          currency: campaign.currency,
          updated_at: new Date(entry.readAt).toISOString(),
        };
        return entry.value;
      })
      .finally(() => {
        entry.loading = undefined;
      });
    return entry.loading;
  }

  function entryOf(campaign: Campaign): Entry {
    const id = `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
    let entry = entries.get(id);
    if (!entry) entries.set(id, (entry = { readAt: 0 }));
    return entry;
  }

  return {
    changed(campaign) {
      const entry = entryOf(campaign);
      // Nobody has asked for this campaign's progress: the next ask reads the report anyway.
      if (!entry.value) return;
      entry.dirty = true;
      entry.counting ??= (async () => {
        try {
          while (entry.dirty) {
            // After the read already in flight (it may predate the gift), and not too soon.
            await entry.loading?.catch(() => undefined);
            const wait = entry.readAt + RECOUNT_MIN_MS - now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
            entry.dirty = false;
            await load(campaign, entry).catch((error: unknown) => onStale?.(campaign, error));
          }
        } finally {
          entry.counting = undefined;
        }
      })();
    },

    async get(campaign) {
      const entry = entryOf(campaign);
      if (entry.counting) await entry.counting;
      if (!entry.value) {
        return load(campaign, entry).catch(() => {
          throw new ProblemError(
            "upstream_unavailable",
            "The campaign's progress cannot be read from the fundraising service right now.",
          );
        });
      }
      if (now() - entry.readAt >= ttlS * 1000 && !entry.loading) {
        load(campaign, entry).catch((error: unknown) => onStale?.(campaign, error));
      }
      return entry.value;
    },
  };
}
