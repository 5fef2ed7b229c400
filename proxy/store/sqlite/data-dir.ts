/**
 * The SQLite store's data directory: its files, the exclusive lock that keeps one proxy per
 * directory, and the signing secret generated there when none is configured.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
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
import { StoreOpenError } from "../errors";

/** The data directory's files hold donors' phone numbers, addresses and user agents: owner only. */
export const DATA_FILE_MODE = 0o600;
const DATA_DIR_MODE = 0o700;

/** File-system codes that say the directory cannot be used by this user, whatever is tried again. */
const UNUSABLE: Record<string, string> = {
  EACCES: "is not writable (or not readable) by this user",
  EPERM: "is not writable by this user",
  EROFS: "is on a read-only file system",
  ENOTDIR: "is not a directory",
  ENOSPC: "has no space left",
  SQLITE_CANTOPEN: "is not writable (or not readable) by this user",
  SQLITE_READONLY: "is not writable by this user",
  SQLITE_PERM: "is not writable by this user",
};

/**
 * `run`, with a data directory this user cannot use said plainly: a StoreOpenError naming
 * GIVEKIT_DATA_DIR and the fix, not a raw EACCES.
 */
export function inDataDir<T>(dataDir: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const what = typeof code === "string" ? UNUSABLE[code] : undefined;
    if (!what) throw error;
    throw new StoreOpenError(
      "GIVEKIT_DATA_DIR",
      `${dataDir} ${what} (${code}): give the proxy's user a directory of its own (chown it, or set GIVEKIT_DATA_DIR to another)`,
    );
  }
}

/** The store's files, owner only (made so when missing, and made so again when an older version left them readable). */
function ownerOnly(dataDir: string): void {
  const db = join(dataDir, DB_FILE);
  // SQLite gives the -wal and -shm files the database file's mode, so it is made first.
  if (!existsSync(db)) closeSync(openSync(db, "a", DATA_FILE_MODE));
  for (const name of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, LOCK_FILE, SECRET_FILE]) {
    const path = join(dataDir, name);
    if (existsSync(path)) chmodSync(path, DATA_FILE_MODE);
  }
}

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
  return inDataDir(dataDir, () => {
    mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
    const lockPath = join(dataDir, LOCK_FILE);
    if (!existsSync(lockPath)) closeSync(openSync(lockPath, "a", DATA_FILE_MODE));
    const lock = lockFile(dataDir, LOCK_FILE);
    try {
      takeOverOldNames(dataDir);
      ownerOnly(dataDir);
    } catch (error) {
      lock.close();
      throw error;
    }
    return lock;
  });
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
  const path = join(dataDir, SECRET_FILE);
  const secret = inDataDir(dataDir, () => {
    mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
    const old = join(dataDir, OLD_NAMES.secret);
    if (!existsSync(path) && existsSync(old)) renameSync(old, path);
    try {
      writeFileSync(path, randomBytes(SECRET_BYTES).toString("hex"), { flag: "wx", mode: DATA_FILE_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    return readFileSync(path, "utf8").trim();
  });
  if (secret.length < SECRET_BYTES)
    throw new Error(`${path} holds no usable secret; delete it to make a new one.`);
  return secret;
}
