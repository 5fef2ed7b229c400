/**
 * The SQLite store's data directory: its files, the exclusive lock that keeps one proxy per
 * directory, and the journal secret generated there when none is configured.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { openSqlite } from "../../../sqlite/open";

export const JOURNAL_FILE = "givekit-journal.db";
/** Held exclusively while a journal is open: one proxy per data directory. */
export const JOURNAL_LOCK_FILE = "givekit-journal.lock";
export const JOURNAL_SECRET_FILE = "journal-secret";
const SECRET_BYTES = 32;

/** The data directory belongs to a journal that is open in another proxy (or this one). */
export class JournalInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `${dataDir} is in use by another givekit proxy. Two proxies must not share a data directory: stop the other one first, give each its own GIVEKIT_DATA_DIR, or run them all on one PostgreSQL (DATABASE_URL).`,
    );
    this.name = "JournalInUseError";
  }
}

/**
 * Takes an exclusive SQLite lock on a file in the data directory, held until the journal is
 * closed; the operating system drops it when the process ends, however it ends. Otherwise a
 * second proxy on the directory would, as it starts, take the first one's donations in flight
 * for ones a crash interrupted.
 */
export function lockDataDir(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const lock = openSqlite(join(dataDir, JOURNAL_LOCK_FILE), { timeout: 0 });
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
export function syncDirectory(dir: string): void {
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
 *
 * @example
 * const secret = resolveJournalSecret("./data", null); // 64 hex characters, the same next time
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
