/**
 * The SQLite store's data directory: its files, the exclusive lock that keeps one proxy per
 * directory, and the signing secret generated there when none is configured.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { openSqlite } from "../../../sqlite/open";

export const DB_FILE = "givekit.db";
/** Held exclusively while a store is open: one proxy per data directory. */
export const LOCK_FILE = "givekit.lock";
export const SECRET_FILE = "signing-secret";
const SECRET_BYTES = 32;
/** The files' names before the store was called a store (a "journal"): taken over when found. */
const OLD_NAMES = { db: "givekit-journal.db", lock: "givekit-journal.lock", secret: "journal-secret" };

/** The data directory belongs to a store that is open in another proxy (or this one). */
export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `${dataDir} is in use by another givekit proxy. Two proxies must not share a data directory: stop the other one first, give each its own GIVEKIT_DATA_DIR, or run them all on one PostgreSQL (DATABASE_URL).`,
    );
    this.name = "DataDirInUseError";
  }
}

/**
 * Takes an exclusive SQLite lock on a file in the data directory, held until the store is
 * closed; the operating system drops it when the process ends, however it ends. Otherwise a
 * second proxy on the directory would, as it starts, take the first one's donations in flight
 * for ones a crash interrupted.
 */
export function lockDataDir(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const lock = lockFile(dataDir, LOCK_FILE);
  try {
    takeOverOldNames(dataDir);
  } catch (error) {
    lock.close();
    throw error;
  }
  return lock;
}

function lockFile(dataDir: string, name: string): Database.Database {
  const lock = openSqlite(join(dataDir, name), { timeout: 0 });
  try {
    // Nothing is ever written to it: no rollback journal file beside it.
    lock.pragma("journal_mode = MEMORY");
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") throw new DataDirInUseError(dataDir);
    throw error;
  }
  return lock;
}

/**
 * A data directory from before the rename (`givekit-journal.db`, `journal-secret`) gets today's
 * names, its data untouched. The old lock is taken first: a proxy of an older version still
 * running there is refused (DataDirInUseError), never raced.
 */
function takeOverOldNames(dataDir: string): void {
  const oldDb = join(dataDir, OLD_NAMES.db);
  if (!existsSync(oldDb) || existsSync(join(dataDir, DB_FILE))) return;
  const oldLock = lockFile(dataDir, OLD_NAMES.lock);
  try {
    for (const suffix of ["", "-wal", "-shm"])
      if (existsSync(oldDb + suffix)) renameSync(oldDb + suffix, join(dataDir, DB_FILE + suffix));
    const oldSecret = join(dataDir, OLD_NAMES.secret);
    if (existsSync(oldSecret) && !existsSync(join(dataDir, SECRET_FILE)))
      renameSync(oldSecret, join(dataDir, SECRET_FILE));
    syncDirectory(dataDir);
  } finally {
    oldLock.close();
  }
  rmSync(join(dataDir, OLD_NAMES.lock), { force: true });
}

/** The store's file in `dataDir`, under its old name while a proxy has not yet taken it over. */
export function dbFileIn(dataDir: string): string {
  const current = join(dataDir, DB_FILE);
  const old = join(dataDir, OLD_NAMES.db);
  return !existsSync(current) && existsSync(old) ? old : current;
}

/** Makes a directory's entries (the store's files) durable. */
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
 * const secret = resolveSigningSecret("./data", null); // 64 hex characters, the same next time
 */
export function resolveSigningSecret(dataDir: string, configured: string | null): string {
  if (configured) return configured;
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, SECRET_FILE);
  const old = join(dataDir, OLD_NAMES.secret);
  if (!existsSync(path) && existsSync(old)) renameSync(old, path);
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
