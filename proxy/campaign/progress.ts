/**
 * A campaign's progress toward its goal, from the upstream's transactions report: what its
 * keyword has collected, in integer cents, and by how many donors. The figures live in the store
 * (shared by every proxy on it) and are refreshed in the background, at most once per interval
 * across all proxies (a lease in the store), with a long time limit of their own; a page is
 * answered at once with the last figures and their age, never kept waiting on a report.
 *
 * A refresh reads only what changed where the report's filters allow: rows created before a
 * UTC midnight (the "base") are summed once, with their donors' e-mail hashes kept in the store,
 * and each refresh streams only the rows from that midnight on (asking from the day before, in
 * case the upstream's day is not UTC's, and keeping rows by their own time). Every
 * FULL_READ_EVERY_MS a full read starts the base again, which also catches refunds and voids of
 * older gifts. The same read keeps the newest WALL_KEPT gifts as a room may see them (wallEntry)
 * and what it credits each fundraiser and team (the leaderboard's sums, split into base and tail
 * like the figures), beside the figures, for the wall, the leaderboard and the display (live()).
 */
import { randomBytes } from "node:crypto";
import type { Campaign, Progress } from "../../contract/api";
import { fromCents } from "../../contract/money";
import { reportDateOf } from "../../contract/upstream";
import { CreditTally, type PeerCredits } from "./leaderboard";
import type { Metrics } from "../metrics";
import { ProblemError } from "../problem";
import type { ProgressFigures, ProgressSave, ProgressStore, StoredCredits } from "../store";
import { DONOR_BATCH } from "../store/progress";
import type { UpstreamClient } from "../upstream/client";
import { openReportSink } from "./progress-reader";
import { hashesAt, NewestGifts, timeOf, type PackedHashes, type ReportSums } from "./progress-tally";
import type { WallEntry } from "./wall";

/** The figures and the wall as one read left them; `read_at` tells one read's from the next's. */
export interface LiveFigures {
  progress: Progress;
  wall: WallEntry[];
  /** What the same read credits each fundraiser and team (the leaderboard's sums). */
  credits: PeerCredits;
  read_at: number;
  /** The last read failed: these figures are the last good ones (their age is in progress.updated_at). */
  failing: boolean;
}

export interface ProgressCache {
  /**
   * The last figures there are, at once. With none yet (cold) it waits up to COLD_WAIT_MS for the
   * first read, then answers 503 (Retry-After) while that read goes on in the background.
   */
  get(campaign: Campaign): Promise<Progress>;
  /**
   * A gift to the campaign was charged through this proxy: read the changes again soon (at most
   * every RECOUNT_MIN_MS), if anyone shows this campaign's progress.
   */
  changed(campaign: Campaign): void;
  /** The stored figures behind get(), for other readers of the same feed (a wall, a leaderboard). */
  figures(campaign: Campaign): Promise<ProgressFigures | undefined>;
  /** What get() answers, with the newest gifts of the same read: the wall's and the display's feed. */
  live(campaign: Campaign): Promise<LiveFigures>;
}

/** However many gifts come in, a campaign's changes are read again for them at most this often. */
export const RECOUNT_MIN_MS = 2000;
/** A page asking while a gift of this proxy's is being counted waits at most this long for it. */
export const COUNT_WAIT_MS = 3000;
/** A page asking before there are any figures waits this long for the first read, then gets a 503. */
export const COLD_WAIT_MS = 5000;
/** While another proxy holds the first read's lease, a cold page looks at the store this often. */
const COLD_POLL_MS = 50;
/** A report read's own time limit: far above UPSTREAM_TIMEOUT_MS, since a big account's report streams for a while. */
export const REPORT_TIMEOUT_MS = 300_000;
/** The lease on reading a report outlasts its time limit, so two proxies never read it at once. */
const LEASE_MS = REPORT_TIMEOUT_MS + 30_000;
/** A full read (every row) this often; the refreshes between read only the changes. */
export const FULL_READ_EVERY_MS = 6 * 3600 * 1000;
/** After a failed read: the first wait before another, doubled each failure up to the last. */
export const BACKOFF_MS = { first: 10_000, last: 600_000 } as const;
/** A proxy looks at the store's figures at most this often per campaign (other proxies may have refreshed them). */
const STORE_LOOK_MS = 1000;
/**
 * The base stops at the UTC midnight before this long ago: a row may show in the report a while
 * after its time (the full read every FULL_READ_EVERY_MS catches any later still).
 */
const BASE_LAG_MS = 2 * 3600 * 1000;
const DAY_MS = 86_400_000;

const idOf = (campaign: Campaign) => `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
function toProgress(campaign: Campaign, figures: ProgressFigures): Progress {
  return {
    raised: fromCents(figures.raised_cents),
    goal: campaign.goal_amount ?? null,
    donors: figures.donors,
    currency: campaign.currency,
    updated_at: new Date(figures.read_at).toISOString(),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const utcMidnight = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

interface Entry {
  figures?: ProgressFigures;
  /** When this proxy last looked at the store's figures. */
  lookedAt: number;
  refreshing?: Promise<void>;
  /** The re-read changed() started: a page asking meanwhile waits for it (up to COUNT_WAIT_MS). */
  counting?: Promise<void>;
  /** A gift came since the last read began: one more read is due. */
  dirty?: boolean;
}

export interface ProgressOptions {
  upstream: Pick<UpstreamClient, "readTransactions">;
  store: ProgressStore;
  /** GIVEKIT_PROGRESS_CACHE_S: the refresh interval (figures older than this are read again). */
  ttlS: number;
  /** Told of each failed read (the last figures, if any, are served meanwhile). */
  onStale?: (campaign: Campaign, error: unknown) => void;
  metrics?: Pick<Metrics, "progressReads">;
  now?: () => number;
  /** A report read's time limit; REPORT_TIMEOUT_MS unless given. */
  reportTimeoutMs?: number;
  /** True once the proxy is stopping: a page waiting on a cold read is answered 503 at once. */
  draining?: () => boolean;
}

/** What one read found: the figures to save, and the base's donor hashes it adds (or replaces, with `reset`). */
interface ReadResult {
  figures: ProgressSave;
  donors: { reset: boolean; add: PackedHashes };
}

/** What the steps of a read need. */
interface ReadContext {
  upstream: Pick<UpstreamClient, "readTransactions">;
  store: ProgressStore;
  reportTimeoutMs: number;
}

/** Gives the event loop back between two bounded steps of a read, so no request waits behind it. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

// A read, step by step: the campaign's rows summed on either side of a boundary, on the progress
// reading thread (sumCollected); the sums put together (fullRead or changesRead); then the sums
// and the donors saved (saveRead), touching the store in batches of DONOR_BATCH.

/** The campaign's collected rows created at or after `since` (all of them when 0), summed either side of `boundary`. */
async function sumCollected(
  { upstream, reportTimeoutMs }: ReadContext,
  campaign: Campaign,
  since: number,
  boundary: number,
): Promise<ReportSums> {
  const filter = {
    shortcode: campaign.shortcode,
    keyword: campaign.keyword,
    status: "collected" as const,
    ...(since > 0 ? { start_date: reportDateOf(new Date(since - DAY_MS)) } : {}),
  };
  const spec = { shortcode: campaign.shortcode, keyword: campaign.keyword, since, boundary };
  const sink = await upstream.readTransactions(filter, (shape) => openReportSink(spec, shape), {
    timeoutMs: reportTimeoutMs,
  });
  if (!sink.sums) throw new Error("the transactions report was read without its sums");
  return sink.sums;
}

/** A full read: every row; the base is every row before the last UTC midnight (BASE_LAG_MS ago). */
async function fullRead(ctx: ReadContext, campaign: Campaign, startedAt: number): Promise<ReadResult> {
  const boundary = utcMidnight(startedAt - BASE_LAG_MS);
  const { before: base, from: tail, ...read } = await sumCollected(ctx, campaign, 0, boundary);
  const figures: ProgressSave = {
    raised_cents: base.cents + tail.cents,
    gifts: base.gifts + tail.gifts,
    donors: base.donors + base.anonymous + read.donorsOnlyFrom.count + tail.anonymous,
    read_at: startedAt,
    full_at: startedAt,
    base_before: boundary,
    base_cents: base.cents,
    base_gifts: base.gifts,
    base_donors: base.donors,
    base_anonymous: base.anonymous,
    wall: read.wall,
    credits: {
      base: read.creditsBefore,
      all: new CreditTally().addAll(read.creditsFrom).addAll(read.creditsBefore).toJSON(),
    },
  };
  return { figures, donors: { reset: true, add: read.donorsBefore } };
}

/** How many of `donors` the campaign's saved base has, asked in batches that give the event loop back. */
async function countKnown(store: ProgressStore, id: string, donors: PackedHashes): Promise<number> {
  let known = 0;
  for (let at = 0; at < donors.count; at += DONOR_BATCH) {
    if (at > 0) await yieldToRequests();
    known += await store.knownDonors(id, hashesAt(donors, at, at + DONOR_BATCH));
  }
  return known;
}

/** Only the changes: rows from the base's midnight on; a new day's midnight folds a day in. */
async function changesRead(
  ctx: ReadContext,
  campaign: Campaign,
  startedAt: number,
  last: ProgressFigures & { credits: StoredCredits },
): Promise<ReadResult> {
  const id = idOf(campaign);
  const boundary = Math.max(last.base_before, utcMidnight(startedAt - BASE_LAG_MS));
  const { before: fold, from: tail, ...read } = await sumCollected(ctx, campaign, last.base_before, boundary);
  // Kept gifts from before this read's rows stay; those it covers come from its rows only (a refund drops off).
  const wall = new NewestGifts();
  for (const entry of last.wall) if (timeOf(entry) < last.base_before) wall.add(entry);
  for (const entry of read.wall) wall.add(entry);
  const foldNew = fold.donors - (await countKnown(ctx.store, id, read.donorsBefore));
  const tailKnown =
    tail.donors - read.donorsOnlyFrom.count + (await countKnown(ctx.store, id, read.donorsOnlyFrom));
  const baseCredits = new CreditTally().addAll(last.credits.base).addAll(read.creditsBefore).toJSON();
  const base = {
    cents: last.base_cents + fold.cents,
    gifts: last.base_gifts + fold.gifts,
    donors: last.base_donors + foldNew,
    anonymous: last.base_anonymous + fold.anonymous,
  };
  const figures: ProgressSave = {
    raised_cents: base.cents + tail.cents,
    gifts: base.gifts + tail.gifts,
    donors: base.donors + base.anonymous + tail.donors - tailKnown + tail.anonymous,
    read_at: startedAt,
    full_at: last.full_at,
    base_before: boundary,
    base_cents: base.cents,
    base_gifts: base.gifts,
    base_donors: base.donors,
    base_anonymous: base.anonymous,
    wall: wall.newest(),
    credits: {
      base: baseCredits,
      all: new CreditTally().addAll(read.creditsFrom).addAll(baseCredits).toJSON(),
    },
  };
  return { figures, donors: { reset: false, add: read.donorsBefore } };
}

/**
 * Saves a read under its lease, never half: the donor hashes no saved read counts are pruned
 * first (a failed read's, the base a full read replaced), the read's own are staged batch by
 * batch, and one last write saves the figures and makes those donors count. A read that stops
 * anywhere before that last write leaves the figures and the base as they were.
 */
async function saveRead(store: ProgressStore, id: string, token: string, read: ReadResult): Promise<void> {
  while ((await store.pruneProgressDonors(id, token, DONOR_BATCH)) > 0) await yieldToRequests();
  // Sorted in the store's key order by the reading thread: a batch of neighbours rewrites a few
  // pages of the store's index where one in random order rewrites nearly all of them.
  for (let at = 0; at < read.donors.add.count; at += DONOR_BATCH) {
    await yieldToRequests();
    const batch = hashesAt(read.donors.add, at, at + DONOR_BATCH);
    if (!(await store.stageProgressDonors(id, token, batch))) {
      throw new Error("the progress read's lease was taken over before its donors were saved");
    }
  }
  await yieldToRequests();
  if (!(await store.saveProgress(id, token, read.figures, { reset: read.donors.reset }))) {
    throw new Error("the progress read's lease was taken over before its figures were saved");
  }
}

/**
 * @example
 * const progress = createProgressCache({ upstream, store, ttlS: 60, onStale: (c, e) => log.warn(e) });
 * await progress.get(campaign); // {raised: "18240.00", goal: "25000.00", donors: 412, …}
 */
export function createProgressCache(options: ProgressOptions): ProgressCache {
  const { store, onStale, metrics } = options;
  const now = options.now ?? Date.now;
  const intervalMs = options.ttlS * 1000;
  const ctx: ReadContext = {
    upstream: options.upstream,
    store,
    reportTimeoutMs: options.reportTimeoutMs ?? REPORT_TIMEOUT_MS,
  };
  const entries = new Map<string, Entry>();

  function entryOf(campaign: Campaign): Entry {
    const id = idOf(campaign);
    let entry = entries.get(id);
    if (!entry) entries.set(id, (entry = { lookedAt: 0 }));
    return entry;
  }

  async function look(campaign: Campaign, entry: Entry): Promise<ProgressFigures | undefined> {
    entry.figures = await store.progressFigures(idOf(campaign));
    entry.lookedAt = now();
    return entry.figures;
  }

  /**
   * One refresh, if this proxy gets the lease (nobody else reading, no back-off, figures stale):
   * claim the lease, read (in full, or only the changes), save, and look at the figures again.
   */
  async function refresh(
    campaign: Campaign,
    entry: Entry,
    staleBefore: number,
    pastBackoff: boolean,
  ): Promise<void> {
    const id = idOf(campaign);
    const token = randomBytes(12).toString("hex");
    if (!(await store.claimProgressRead(id, token, LEASE_MS, staleBefore, pastBackoff))) {
      await look(campaign, entry);
      return;
    }
    const last = await store.progressFigures(id);
    const startedAt = now();
    // Figures saved before the store kept the sums per peer are read in full once.
    const changesOnly =
      last && last.read_at > 0 && last.credits && startedAt - last.full_at < FULL_READ_EVERY_MS
        ? { ...last, credits: last.credits }
        : null;
    const kind = changesOnly ? "changes" : "full";
    try {
      const read = changesOnly
        ? await changesRead(ctx, campaign, startedAt, changesOnly)
        : await fullRead(ctx, campaign, startedAt);
      await saveRead(store, id, token, read);
      metrics?.progressReads.inc({ kind, result: "ok" });
    } catch (error) {
      const failures = (last?.failures ?? 0) + 1;
      const wait = Math.min(BACKOFF_MS.first * 2 ** (failures - 1), BACKOFF_MS.last);
      await store.failProgressRead(id, token, now() + wait).catch(() => undefined);
      metrics?.progressReads.inc({ kind, result: "failed" });
      onStale?.(campaign, error);
    }
    await look(campaign, entry);
  }

  /** Starts a refresh unless one of this proxy's runs already. */
  function kick(campaign: Campaign, entry: Entry, staleBefore: number, pastBackoff = false): Promise<void> {
    entry.refreshing ??= refresh(campaign, entry, staleBefore, pastBackoff)
      .catch((error: unknown) => onStale?.(campaign, error))
      .finally(() => {
        entry.refreshing = undefined;
      });
    return entry.refreshing;
  }

  async function cold(campaign: Campaign, entry: Entry): Promise<ProgressFigures> {
    const deadline = now() + COLD_WAIT_MS;
    for (;;) {
      const figures = entry.figures;
      if (figures && figures.read_at > 0) return figures;
      // A read failed and backs off: say so at once rather than keep the page waiting.
      if (figures && figures.retry_at > now() && !entry.refreshing) break;
      // The proxy is stopping: the page is not held to the drain's end (it asks again, elsewhere).
      if (options.draining?.()) break;
      const left = deadline - now();
      if (left <= 0) break;
      if (!entry.refreshing) void kick(campaign, entry, Number.MAX_SAFE_INTEGER);
      // Another proxy may be the one reading: look at the store again shortly.
      await Promise.race([entry.refreshing, sleep(Math.min(left, 250))]);
      if (!entry.refreshing) await look(campaign, entry);
      // Still cold with no read of this proxy's running: another holds the lease. Wait a moment
      // before asking again, or the asking would spin without giving the event loop back.
      if (!entry.refreshing && !(entry.figures && entry.figures.read_at > 0)) await sleep(COLD_POLL_MS);
    }
    const retryAt = entry.figures?.retry_at ?? 0;
    const retryS = Math.max(1, Math.ceil(((retryAt > now() ? retryAt : now() + 5000) - now()) / 1000));
    throw new ProblemError(
      "upstream_unavailable",
      "The campaign's progress cannot be read from the fundraising service right now.",
      undefined,
      { "Retry-After": String(retryS) },
    );
  }

  return {
    changed(campaign) {
      const entry = entryOf(campaign);
      // Nobody has asked for this campaign's progress here: the next ask reads anyway.
      if (!entry.figures || entry.figures.read_at === 0) return;
      entry.dirty = true;
      entry.counting ??= (async () => {
        try {
          // Not once the proxy drains: its store closes under a recount still waiting.
          while (entry.dirty && !options.draining?.()) {
            // After the read already in flight (it may predate the gift), and not too soon.
            await entry.refreshing;
            const wait = (entry.figures?.read_at ?? 0) + RECOUNT_MIN_MS - now();
            if (wait > 0) await sleep(wait);
            entry.dirty = false;
            const gift = now();
            // A gift was just charged: the upstream answers, so a back-off does not hold this read.
            await kick(campaign, entry, gift - RECOUNT_MIN_MS, true);
            // Another proxy read meanwhile (the lease was theirs): wait for figures from after the gift.
            for (
              let tries = 0;
              tries < 20 && (entry.figures?.read_at ?? 0) < gift && !options.draining?.();
              tries++
            ) {
              await sleep(250);
              await look(campaign, entry);
              if ((entry.figures?.read_at ?? 0) < gift) await kick(campaign, entry, gift - 1, true);
            }
          }
        } finally {
          entry.counting = undefined;
        }
      })();
    },

    async get(campaign) {
      return toProgress(campaign, await current(campaign));
    },

    async live(campaign) {
      const figures = await current(campaign);
      return {
        progress: toProgress(campaign, figures),
        wall: figures.wall,
        credits: figures.credits?.all ?? { fundraiser: {}, team: {} },
        read_at: figures.read_at,
        failing: figures.failures > 0,
      };
    },

    async figures(campaign) {
      return store.progressFigures(idOf(campaign));
    },
  };

  /** The last figures there are (see get()), a refresh started when they are older than the interval. */
  async function current(campaign: Campaign): Promise<ProgressFigures> {
    const entry = entryOf(campaign);
    if (entry.counting) await Promise.race([entry.counting, sleep(COUNT_WAIT_MS)]);
    if (!entry.figures || now() - entry.lookedAt >= STORE_LOOK_MS) {
      try {
        await look(campaign, entry);
      } catch (error) {
        // The store is away: the figures this proxy has are still the best there are.
        if (!entry.figures) throw error;
      }
    }
    let figures = entry.figures;
    if (!figures || figures.read_at === 0) figures = await cold(campaign, entry);
    else if (now() - figures.read_at >= intervalMs && figures.retry_at <= now()) {
      void kick(campaign, entry, now() - intervalMs);
    }
    return figures;
  }
}
