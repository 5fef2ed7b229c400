/**
 * The notes the SQLite store shares with the command line (SharedNotes, types.ts): the running
 * proxy's open circuit breakers and the allowances a venue is let through by, in one table of the
 * data directory's database, where `givekit defence status/allow` read and write them beside it.
 */
import type Database from "better-sqlite3";

export function sqliteNotes(db: Database.Database) {
  const put = db.prepare<[string, string, number]>(
    "INSERT INTO shared_notes (key, value, expire_ms) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, expire_ms = excluded.expire_ms",
  );
  const sweep = db.prepare<[number]>("DELETE FROM shared_notes WHERE expire_ms <= ?");
  // A prefix as a range of keys (the primary key's order), so no LIKE wildcard in a key matters.
  const under = db.prepare<[string, string, number], { key: string; value: string; expire: number }>(
    "SELECT key, value, expire_ms AS expire FROM shared_notes WHERE key >= ? AND key < ? AND expire_ms > ? ORDER BY key",
  );
  const one = db.prepare<[string, number], { value: string }>(
    "SELECT value FROM shared_notes WHERE key = ? AND expire_ms > ?",
  );
  return {
    recall(key: string, now: number): string | null {
      return one.get(key, now)?.value ?? null;
    },
    remember(key: string, value: string, expire: number, now: number) {
      sweep.run(now);
      put.run(key, value, expire);
    },
    notesUnder(prefix: string, now: number) {
      return under.all(prefix, `${prefix}\uffff`, now);
    },
  };
}
