/**
 * The proxy's durable journal (SQLite through better-sqlite3, in the data directory):
 * idempotency records, donation attempts before and after the upstream call, and SMS
 * consent records. It never holds a card number, a CVV or a token value: request bodies
 * are kept only as an HMAC fingerprint, and stored answers hold no token.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";

export const JOURNAL_FILE = "givekit-journal.db";
/** Held exclusively while a journal is open: one proxy per data directory. */
export const JOURNAL_LOCK_FILE = "givekit-journal.lock";
export const JOURNAL_SECRET_FILE = "journal-secret";
const SECRET_BYTES = 32;
/** The longest a write nobody waits for stays in memory before it is committed. */
export const LAZY_FLUSH_MS = 250;

/** What became of a donation attempt. `unknown`: sent, no answer; it is never re-sent. */
export type AttemptState =
  | "sending"
  | "succeeded"
  | "declined"
  | "failed"
  | "rejected"
  | "unknown"
  | "not_sent";

export interface AttemptRecord {
  reference: string;
  idempotency_key: string;
  client_scope: string;
  client_ip: string;
  fingerprint: string;
  shortcode: string;
  keyword: string;
  amount: string;
  fee_amount: string;
  recurring_frequency: string | null;
  peer_fundraiser_id: string | null;
  peer_fundraiser_team_id: string | null;
  state: AttemptState;
  upstream_status: number | null;
  transaction_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConsentRecord {
  id: number;
  mobilenumber: string;
  list: string | null;
  keyword: string | null;
  shortcode: string | null;
  consent_text_sha256: string;
  consented_at: string;
  ip: string;
  user_agent: string | null;
  page_url: string | null;
  outcome: string;
}

/** The answer a finished idempotent request gave, replayed verbatim. */
export interface StoredAnswer {
  status: number;
  body: string;
}

export type BeginResult =
  | { kind: "started" }
  | { kind: "replay"; answer: StoredAnswer }
  | { kind: "mismatch" }
  | { kind: "in_flight" };

interface IdempotencyRow {
  fingerprint: string;
  state: "in_flight" | "done";
  status: number | null;
  body: string | null;
  created_at: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS idempotency_keys (
  client_scope TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
  reference TEXT,
  status INTEGER,
  body TEXT,
  created_at INTEGER NOT NULL,
  completed_at INTEGER,
  PRIMARY KEY (client_scope, idempotency_key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at);
CREATE TABLE IF NOT EXISTS donation_attempts (
  reference TEXT PRIMARY KEY,
  idempotency_key TEXT NOT NULL,
  client_scope TEXT NOT NULL,
  client_ip TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  shortcode TEXT NOT NULL,
  keyword TEXT NOT NULL,
  amount TEXT NOT NULL,
  fee_amount TEXT NOT NULL,
  recurring_frequency TEXT,
  peer_fundraiser_id TEXT,
  peer_fundraiser_team_id TEXT,
  state TEXT NOT NULL,
  upstream_status INTEGER,
  transaction_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS donation_attempts_state ON donation_attempts (state);
CREATE TABLE IF NOT EXISTS consent_records (
  id INTEGER PRIMARY KEY,
  mobilenumber TEXT NOT NULL,
  list TEXT,
  keyword TEXT,
  shortcode TEXT,
  consent_text_sha256 TEXT NOT NULL,
  consented_at TEXT NOT NULL,
  ip TEXT NOT NULL,
  user_agent TEXT,
  page_url TEXT,
  outcome TEXT NOT NULL
);
`;

/** The data directory belongs to a journal that is open in another proxy (or this one). */
export class JournalInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `${dataDir} is in use by another givekit proxy. Two proxies must not share a data directory: stop the other one first, or give each its own GIVEKIT_DATA_DIR.`,
    );
    this.name = "JournalInUseError";
  }
}

export interface JournalOptions {
  dataDir: string;
  /** Idempotency records older than this are forgotten. */
  retentionH: number;
  now?: () => number;
}

/**
 * Opens (or creates) the journal in a data directory.
 *
 * @example
 * const journal = openJournal({ dataDir: "./data", retentionH: 24 });
 * journal.begin({ scope: "https://shelter.example", key: "k1", endpoint: "donations", fingerprint: "…" });
 */
export function openJournal(options: JournalOptions) {
  mkdirSync(options.dataDir, { recursive: true });
  const lock = lockDataDir(options.dataDir);
  try {
    return openLocked(options, lock);
  } catch (error) {
    lock.close();
    throw error;
  }
}

function openLocked(options: JournalOptions, lock: Database.Database) {
  const now = options.now ?? Date.now;
  const retentionMs = options.retentionH * 3600 * 1000;
  const path = join(options.dataDir, JOURNAL_FILE);
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  // NORMAL: a commit writes the WAL without an fsync on the event loop; durability comes from
  // the fdatasync below, which runs on libuv's thread pool. Together they equal FULL: nothing is
  // acted on (sent upstream, answered) before its WAL frames are on disk.
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.exec(SCHEMA);
  // Opened for fdatasync only; "a" creates it should SQLite not have yet.
  const walFd = openSync(`${path}-wal`, "a");
  syncDirectory(options.dataDir);
  // Prepared once: db.exec would parse the SQL again on every batch.
  const beginStatement = db.prepare("BEGIN IMMEDIATE");
  const commitStatement = db.prepare("COMMIT");
  const rollbackStatement = db.prepare("ROLLBACK");

  // Group commit: the writes of one event-loop turn share one transaction; the transactions that
  // commit while an fdatasync is running share the next one. Reads on this connection see writes
  // at once (so claiming a key stays atomic); `durable()` resolves once they are on disk.
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
  function writeLater(run: () => void): void {
    if (batch) {
      run();
      return;
    }
    lazy.push(run);
    lazyTimer ??= setTimeout(flushLazy, LAZY_FLUSH_MS);
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
  // one commit (one WAL append) per sync instead of one per event-loop turn. Nobody waits longer,
  // since those writers would wait for the running sync to finish anyway.
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
  const iso = () => new Date(now()).toISOString();

  const selectKey = db.prepare<[string, string], IdempotencyRow>(
    "SELECT fingerprint, state, status, body, created_at FROM idempotency_keys WHERE client_scope = ? AND idempotency_key = ?",
  );
  const deleteKey = db.prepare<[string, string]>(
    "DELETE FROM idempotency_keys WHERE client_scope = ? AND idempotency_key = ?",
  );
  const insertKey = db.prepare<[string, string, string, string, number]>(
    "INSERT OR IGNORE INTO idempotency_keys (client_scope, idempotency_key, endpoint, fingerprint, state, created_at) VALUES (?, ?, ?, ?, 'in_flight', ?)",
  );
  const completeKey = db.prepare<[number, string, number, string | null, string, string]>(
    "UPDATE idempotency_keys SET state = 'done', status = ?, body = ?, completed_at = ?, reference = ? WHERE client_scope = ? AND idempotency_key = ?",
  );
  const purgeKeys = db.prepare<[number]>("DELETE FROM idempotency_keys WHERE created_at < ?");
  const insertAttempt = db.prepare(
    `INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode, keyword,
       amount, fee_amount, recurring_frequency, peer_fundraiser_id, peer_fundraiser_team_id, state, created_at, updated_at)
     VALUES (@reference, @idempotency_key, @client_scope, @client_ip, @fingerprint, @shortcode, @keyword,
       @amount, @fee_amount, @recurring_frequency, @peer_fundraiser_id, @peer_fundraiser_team_id, 'sending', @created_at, @created_at)`,
  );
  const updateAttempt = db.prepare<[AttemptState, number | null, string | null, string, string]>(
    "UPDATE donation_attempts SET state = ?, upstream_status = ?, transaction_id = ?, updated_at = ? WHERE reference = ?",
  );
  const selectAttempt = db.prepare<[string], AttemptRecord>(
    "SELECT * FROM donation_attempts WHERE reference = ?",
  );
  const selectAttempts = db.prepare<[], AttemptRecord>(
    "SELECT * FROM donation_attempts ORDER BY created_at, rowid",
  );
  const insertConsent = db.prepare(
    `INSERT INTO consent_records (mobilenumber, list, keyword, shortcode, consent_text_sha256, consented_at, ip, user_agent, page_url, outcome)
     VALUES (@mobilenumber, @list, @keyword, @shortcode, @consent_text_sha256, @consented_at, @ip, @user_agent, @page_url, 'pending')`,
  );
  const updateConsent = db.prepare<[string, number]>("UPDATE consent_records SET outcome = ? WHERE id = ?");
  const selectConsents = db.prepare<[], ConsentRecord>("SELECT * FROM consent_records ORDER BY id");

  const begin = db.transaction(
    (scope: string, key: string, endpoint: string, fingerprint: string): BeginResult => {
      const existing = selectKey.get(scope, key);
      if (existing && existing.state === "done" && existing.created_at < now() - retentionMs) {
        deleteKey.run(scope, key);
      } else if (existing) {
        if (existing.fingerprint !== fingerprint) return { kind: "mismatch" };
        if (existing.state === "in_flight") return { kind: "in_flight" };
        return { kind: "replay", answer: { status: existing.status!, body: existing.body ?? "" } };
      }
      insertKey.run(scope, key, endpoint, fingerprint, now());
      return { kind: "started" };
    },
  );

  /** A process that died between "sending" and the answer cannot know what happened: say so. */
  const recover = db.transaction((pendingBody: (reference: string) => string) => {
    const interrupted = db
      .prepare<[], { reference: string; client_scope: string; idempotency_key: string }>(
        "SELECT reference, client_scope, idempotency_key FROM donation_attempts WHERE state = 'sending'",
      )
      .all();
    for (const attempt of interrupted) {
      updateAttempt.run("unknown", null, null, iso(), attempt.reference);
      completeKey.run(
        202,
        pendingBody(attempt.reference),
        now(),
        attempt.reference,
        attempt.client_scope,
        attempt.idempotency_key,
      );
    }
    // Keys still in flight with no attempt never reached the upstream: forget them.
    db.prepare("DELETE FROM idempotency_keys WHERE state = 'in_flight'").run();
    return interrupted.length;
  });

  return {
    /** Claims an idempotency key, or says why it cannot be claimed. Atomic. */
    begin(record: { scope: string; key: string; endpoint: string; fingerprint: string }): BeginResult {
      return write(() => begin(record.scope, record.key, record.endpoint, record.fingerprint));
    },
    /** Stores the answer to replay for this key. */
    complete(scope: string, key: string, answer: StoredAnswer, reference: string | null): void {
      write(() => completeKey.run(answer.status, answer.body, now(), reference, scope, key));
    },
    /** Frees a key whose request never reached the upstream, so the same key may be retried. */
    release(scope: string, key: string): void {
      write(() => deleteKey.run(scope, key));
    },
    /** Resolves once every write made so far is on disk (rejects if committing them failed). */
    durable(): Promise<void> {
      return lastDone;
    },
    /** Journals an attempt as "sending", before the upstream call. */
    recordAttempt(
      attempt: Omit<
        AttemptRecord,
        "state" | "upstream_status" | "transaction_id" | "created_at" | "updated_at"
      >,
    ): void {
      write(() => insertAttempt.run({ ...attempt, created_at: iso() }));
    },
    /** Journals what came back (or did not). */
    finishAttempt(
      reference: string,
      state: AttemptState,
      upstreamStatus: number | null,
      transactionId: string | null,
    ): void {
      write(() => updateAttempt.run(state, upstreamStatus, transactionId, iso(), reference));
    },
    attempt(reference: string): AttemptRecord | undefined {
      return selectAttempt.get(reference);
    },
    attempts(): AttemptRecord[] {
      return selectAttempts.all();
    },
    recordConsent(consent: Omit<ConsentRecord, "id" | "consented_at" | "outcome">): number {
      return write(() => Number(insertConsent.run({ ...consent, consented_at: iso() }).lastInsertRowid));
    },
    /** Records what became of it; written with the next batch (within LAZY_FLUSH_MS). */
    finishConsent(id: number, outcome: string): void {
      writeLater(() => updateConsent.run(outcome, id));
    },
    consents(): ConsentRecord[] {
      return selectConsents.all();
    },
    /** Forgets idempotency records past the retention window; returns how many. */
    purgeExpired(): number {
      return write(() => purgeKeys.run(now() - retentionMs).changes);
    },
    /** Marks attempts left "sending" by a previous process as unknown; returns how many. */
    recoverInterrupted(pendingBody: (reference: string) => string): number {
      return write(() => recover(pendingBody));
    },
    close(): void {
      flushLazy();
      commit(true);
      closed = true;
      fdatasyncSync(walFd);
      for (const waiter of unsynced.splice(0)) waiter.resolve();
      closeSync(walFd);
      db.close();
      lock.close();
    },
  };
}

export type Journal = ReturnType<typeof openJournal>;

/**
 * Takes an exclusive SQLite lock on a file in the data directory, held until the journal is
 * closed; the operating system drops it when the process ends, however it ends. Otherwise a
 * second proxy on the directory would, as it starts, take the first one's donations in flight
 * for ones a crash interrupted: mark them unknown, and free keys claimed but not yet sent, which
 * a retry could then send a second time while the first proxy sends them too.
 */
function lockDataDir(dataDir: string): Database.Database {
  const lock = new Database(join(dataDir, JOURNAL_LOCK_FILE), { timeout: 0 });
  try {
    // Nothing is ever written to it: no rollback journal file beside it.
    lock.pragma("journal_mode = MEMORY");
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") throw new JournalInUseError(dataDir);
    throw error;
  }
  return lock;
}

/** Makes a directory's entries (the journal's files) durable. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The HMAC key for body fingerprints: the configured one, else one generated on first start
 * and kept (mode 0600) in the data directory, so fingerprints survive restarts.
 */
export function resolveJournalSecret(dataDir: string, configured: string | null): string {
  if (configured) return configured;
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, JOURNAL_SECRET_FILE);
  try {
    writeFileSync(path, randomBytes(SECRET_BYTES).toString("hex"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const secret = readFileSync(path, "utf8").trim();
  if (secret.length < SECRET_BYTES)
    throw new Error(`${path} holds no usable secret; delete it to make a new one.`);
  return secret;
}
