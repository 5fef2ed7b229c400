/**
 * Group commit for the SQLite store: the writes of one event-loop turn share one transaction;
 * the transactions that commit while an fdatasync is running share the next one. Commits use
 * `synchronous=NORMAL` and the WAL is then fdatasync'ed on libuv's thread pool: the durability
 * of FULL without blocking the event loop on the disk.
 */
import { closeSync, fdatasync, fdatasyncSync, openSync } from "node:fs";
import type Database from "better-sqlite3";

/** The longest a write nobody waits for stays in memory before it is committed. */
export const LAZY_FLUSH_MS = 250;

/**
 * @example
 * const commits = createGroupCommit(db, "./data/givekit.db");
 * commits.write(() => insert.run(row));
 * await commits.durable(); // the row is on disk
 */
export function createGroupCommit(db: Database.Database, dbPath: string) {
  // Opened for fdatasync only; "a" creates it should SQLite not have yet.
  const walFd = openSync(`${dbPath}-wal`, "a");
  // Prepared once: db.exec would parse the SQL again on every batch.
  const beginStatement = db.prepare("BEGIN IMMEDIATE");
  const commitStatement = db.prepare("COMMIT");
  const rollbackStatement = db.prepare("ROLLBACK");

  type Waiter = { resolve: () => void; reject: (error: unknown) => void };
  let batch: { done: Promise<void>; waiter: Waiter } | null = null;
  let unsynced: Waiter[] = [];
  let syncing = false;
  let closed = false;
  let lastDone: Promise<void> = Promise.resolve();

  // Writes nobody waits for (a consent record's outcome) cause no fsync of their own: they join
  // the next batch, or a flush shortly after.
  const lazy: (() => void)[] = [];
  let lazyTimer: NodeJS.Timeout | null = null;
  function flushLazy(): void {
    lazyTimer = null;
    if (lazy.length > 0) write(() => undefined);
  }

  function syncWal(): void {
    if (syncing || unsynced.length === 0 || closed) return;
    const group = unsynced;
    unsynced = [];
    syncing = true;
    fdatasync(walFd, (error) => {
      syncing = false;
      for (const waiter of group) {
        // After close() the file was synced there, whatever this call met.
        if (error && !closed) waiter.reject(error);
        else waiter.resolve();
      }
      if (commitDue && !closed) commit();
      else syncWal();
    });
  }
  // While an fdatasync runs, the open transaction keeps taking writes and commits once it ends:
  // one commit (one WAL append) per sync instead of one per event-loop turn.
  let commitDue = false;
  function commit(force = false): void {
    const current = batch;
    if (!current) return;
    if (syncing && !force) {
      commitDue = true;
      return;
    }
    commitDue = false;
    batch = null;
    try {
      commitStatement.run();
      unsynced.push(current.waiter);
      syncWal();
    } catch (error) {
      if (db.inTransaction) rollbackStatement.run();
      current.waiter.reject(error);
    }
  }
  /** Runs a write in the open batch (opening one); reads on this connection see it at once. */
  function write<T>(run: () => T): T {
    if (!batch) {
      beginStatement.run();
      if (lazyTimer) {
        clearTimeout(lazyTimer);
        lazyTimer = null;
      }
      for (const queued of lazy.splice(0)) queued();
      let waiter!: Waiter;
      const done = new Promise<void>((resolve, reject) => {
        waiter = { resolve, reject };
      });
      // Nobody may be waiting; the error then only matters to those who do.
      done.catch(() => undefined);
      batch = { done, waiter };
      lastDone = done;
      setImmediate(commit);
    }
    return run();
  }

  return {
    write,
    /** A write nobody waits for: it joins the next batch, or one within LAZY_FLUSH_MS. */
    writeLater(run: () => void): void {
      if (batch) {
        run();
        return;
      }
      lazy.push(run);
      lazyTimer ??= setTimeout(flushLazy, LAZY_FLUSH_MS);
    },
    /** Resolves once every write made so far is on disk (rejects if committing them failed). */
    durable(): Promise<void> {
      return lastDone;
    },
    close(): void {
      flushLazy();
      commit(true);
      closed = true;
      fdatasyncSync(walFd);
      for (const waiter of unsynced.splice(0)) waiter.resolve();
      closeSync(walFd);
    },
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;
