/**
 * The SQLite store (better-sqlite3, WAL) in `GIVEKIT_DATA_DIR`: the default, for one proxy.
 * Writes go through the group commit; claims are atomic because the proxy has one connection
 * and holds the directory's lock.
 */
import { join } from "node:path";
import type Database from "better-sqlite3";
import { openSqlite } from "../../../sqlite/open";
import type { Store, StoreOptions } from "../types";
import { sqliteAttempts } from "./attempts";
import { sqliteConsents } from "./consents";
import { DB_FILE, lockDataDir, syncDirectory } from "./data-dir";
import { sqliteDefence } from "./defence";
import { sqliteFormCounts } from "./form-counts";
import { createGroupCommit } from "./group-commit";
import { sqliteKeys } from "./idempotency-keys";
import { sqliteListings } from "./listings";
import { sqliteNotes } from "./notes";
import { sqliteOutbox } from "./outbox";
import { sqlitePeerLists } from "./peer-lists";
import { sqliteProgress } from "./progress";
import { sqliteSavedForms } from "./saved-forms";
import { migrateSqlite } from "./schema";

export interface SqliteStoreOptions extends StoreOptions {
  dataDir: string;
}

/**
 * Opens (or creates and migrates) the store in a data directory. Claims a crashed run left are
 * expired at once: the directory's lock proves no other proxy holds them.
 *
 * @example
 * const store = openSqliteStore({ dataDir: "./data", retentionH: 24, leaseMs: 23_000 });
 */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  const lock = lockDataDir(options.dataDir);
  try {
    return openLocked(options, lock);
  } catch (error) {
    lock.close();
    throw error;
  }
}

function openLocked(options: SqliteStoreOptions, lock: Database.Database): Store {
  const now = options.now ?? Date.now;
  const path = join(options.dataDir, DB_FILE);
  const db = openSqlite(path);
  try {
    db.pragma("journal_mode = WAL");
    // NORMAL: a commit writes the WAL without an fsync on the event loop; durability comes from
    // the group commit's fdatasync on libuv's thread pool.
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    migrateSqlite(db);
  } catch (error) {
    db.close();
    throw error;
  }
  const commits = createGroupCommit(db, path);
  syncDirectory(options.dataDir);
  const keys = sqliteKeys(db, { retentionMs: options.retentionH * 3600 * 1000, leaseMs: options.leaseMs });
  const attempts = sqliteAttempts(db, { leaseMs: options.leaseMs });
  const consents = sqliteConsents(db);
  const defence = sqliteDefence(db);
  const listings = sqliteListings(db);
  const peerLists = sqlitePeerLists(db);
  const progress = sqliteProgress(db);
  const outbox = sqliteOutbox(db);
  const formCounts = sqliteFormCounts(db);
  const notes = sqliteNotes(db);
  const savedForms = sqliteSavedForms(db);
  const { write, durable } = commits;

  // Whatever a previous run left in flight is orphaned: this process holds the lock. Webhook
  // deliveries it had claimed are due again at once (at least once: never lost).
  write(() => {
    keys.expireLeases(Number.MAX_SAFE_INTEGER, now());
    outbox.releaseAll();
  });

  return {
    kind: "sqlite",
    counters: null,
    sharedNotes: {
      async remember(key, value, ttlMs) {
        write(() => notes.remember(key, value, now() + ttlMs, now()));
        await durable();
      },
      async recall(key) {
        return notes.recall(key, now());
      },
      async notesUnder(prefix) {
        return notes.notesUnder(prefix, now());
      },
    },
    async claimKey(request) {
      // Not waited for: startAttempt waits for the claim with the attempt, before anything is sent.
      return write(() => keys.claim(request, now()));
    },
    async releaseKey(claim) {
      write(() => keys.release(claim));
    },
    async startAttempt(claim, attempt) {
      write(() => attempts.start(claim, attempt, now()));
      await durable();
    },
    async finishAttempt(reference, outcome, events = []) {
      write(() => {
        if (attempts.finish(reference, outcome, now())) {
          outbox.dropHeld(reference);
          outbox.add(events);
        }
        keys.finishKeyOf(reference, now());
      });
      await durable();
    },
    async abandonAttempt(claim, reference) {
      write(() => {
        attempts.notSent(reference, now());
        keys.release(claim);
      });
      await durable();
    },
    async attempt(reference) {
      return attempts.get(reference);
    },
    async attempts() {
      return attempts.all();
    },
    async listAttempts(filter) {
      return attempts.list(filter);
    },
    async leaseReconcile(reference, owner, ms) {
      const held = write(() => attempts.lease(reference, owner, ms, now()));
      await durable();
      return held;
    },
    async releaseReconcile(owner) {
      write(() => attempts.release(owner));
      await durable();
    },
    async resolveUnknown(reference, resolution, events = []) {
      const resolved = write(() => {
        const done = attempts.resolve(reference, resolution, now());
        if (done) {
          outbox.settleHeld(reference, resolution.transaction_id, resolution.state === "succeeded", now());
          outbox.add(events);
        }
        return done;
      });
      await durable();
      return resolved;
    },
    async noteUnknown(reference, note) {
      write(() => attempts.note(reference, note, now()));
      await durable();
    },
    async claimedTransactions(transactionIds) {
      return attempts.claimed(transactionIds);
    },
    async recordConsent(consent, events = []) {
      const id = write(() => {
        const kept = consents.insert(consent, now());
        outbox.add(events);
        return kept;
      });
      await durable();
      consents.textStored(consent.consent_text_sha256);
      return id;
    },
    async finishConsent(id, outcome) {
      commits.writeLater(() => consents.finish(id, outcome));
    },
    async consents() {
      return consents.all();
    },
    async expireLeases() {
      const expired = write(() => keys.expireLeases(now(), now()));
      await durable();
      return expired;
    },
    async purgeExpired() {
      const purged = write(() => keys.purge(now()));
      await durable();
      return purged;
    },
    // Defence mode needs no fsync: a crash loses at most a period that the next crossing restarts.
    async crossDefence(scope, signal, value, quietMs) {
      return write(() => defence.cross(scope, signal, value, quietMs, now()));
    },
    async defenceStates(scopes) {
      return defence.states(scopes);
    },
    async endDefences() {
      return write(() => defence.end(now()));
    },
    async attemptsPage(filter, after, limit) {
      return listings.attemptsPage(filter, after, limit);
    },
    async consentsPage(since, after, limit) {
      return listings.consentsPage(since, after, limit);
    },
    // A lost snapshot or lease costs one more read of the lists: no fsync.
    async peerSnapshotVersion(campaign) {
      return peerLists.version(campaign);
    },
    async peerSnapshot(campaign) {
      return peerLists.snapshot(campaign);
    },
    async leasePeerRead(campaign, owner, ms) {
      return write(() => peerLists.lease(campaign, owner, ms, now()));
    },
    async savePeerSnapshot(campaign, readAt, body) {
      return write(() => peerLists.save(campaign, readAt, body));
    },
    // Progress figures need no fsync: a crash loses at most a read the next refresh repeats.
    async progressFigures(campaign) {
      return progress.figures(campaign);
    },
    async claimProgressRead(campaign, token, leaseMs, staleBefore, pastBackoff = false) {
      return write(() => progress.claim(campaign, token, leaseMs, staleBefore, pastBackoff, now()));
    },
    async saveProgress(campaign, token, figures, donors) {
      return write(() => progress.save(campaign, token, figures, donors));
    },
    async stageProgressDonors(campaign, token, donors) {
      return write(() => progress.stage(campaign, token, donors));
    },
    async pruneProgressDonors(campaign, token, limit) {
      return write(() => progress.prune(campaign, token, limit));
    },
    async failProgressRead(campaign, token, retryAt) {
      write(() => progress.fail(campaign, token, retryAt));
    },
    async knownDonors(campaign, donors) {
      return progress.known(campaign, donors);
    },
    // A delivery's outcome needs no fsync: a crash loses at most the record of a try, and the
    // event is then delivered once more (at least once).
    async claimWebhooks(owner, leaseMs, limit) {
      if (!outbox.anyDue(now())) return [];
      return write(() => outbox.claim(owner, leaseMs, limit, now()));
    },
    async webhookDelivered(seq, owner, status) {
      return write(() => outbox.delivered(seq, owner, status, now()));
    },
    async addWebhookEvents(events) {
      write(() => outbox.add(events));
      await durable();
    },
    async webhookFailed(seq, owner, failure) {
      return write(() => outbox.failed(seq, owner, failure, now()));
    },
    async webhookStats() {
      return outbox.stats(now());
    },
    async webhooksPage(filter, after, limit) {
      return outbox.page(filter, after, limit);
    },
    async requeueWebhooks(filter, mode) {
      const changed = write(() => outbox.requeue(filter, mode, now()));
      await durable();
      return changed;
    },
    // Counts need no fsync: a crash loses at most the last moment's steps.
    async addFormCounts(counts, channelCap) {
      if (counts.length > 0) write(() => formCounts.add(counts, channelCap));
    },
    async formCounts(filter) {
      return formCounts.counts(filter);
    },
    async addOpsCounts(counts) {
      if (counts.length > 0) write(() => formCounts.addOps(counts));
    },
    async opsCounts(filter) {
      return formCounts.ops(filter);
    },
    async givingCounts(filter) {
      return formCounts.giving(filter);
    },
    async unknownAttempts() {
      return formCounts.unknown();
    },
    async pruneDashboardCounts(beforeHour, limit) {
      return write(() => formCounts.prune(beforeHour, limit));
    },
    async dashboardGeneration() {
      return formCounts.generation();
    },
    async revokeDashboard() {
      const generation = write(() => formCounts.revoke());
      await durable();
      return generation;
    },
    async spendDashboardInvite(id, expiresAt) {
      const spent = write(() => formCounts.spend(id, expiresAt, now()));
      await durable();
      return spent;
    },
    // A saved form is what staff were told is saved: durable before the answer.
    async saveFormVersion(form, after) {
      const result = write(() => savedForms.save(form, after, now()));
      await durable();
      return result;
    },
    async savedForm(name) {
      return savedForms.latest(name);
    },
    async savedFormVersions(name, limit) {
      return savedForms.versions(name, limit);
    },
    async savedForms() {
      return savedForms.all();
    },
    async healthy() {
      return db.open;
    },
    async close() {
      commits.close();
      db.close();
      lock.close();
    },
  };
}
