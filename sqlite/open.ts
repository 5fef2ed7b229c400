/**
 * Opens a better-sqlite3 database whose native objects live as long as the process.
 *
 * Why: on Node 24, better-sqlite3 12 aborts the whole process when V8 collects one of its
 * statements or databases outside a JavaScript context (`Statement::~Statement` →
 * `node::RemoveEnvironmentCleanupHook`: "Assertion failed: (env) != nullptr"), which happens
 * under load. better-sqlite3 13 needs Node 22, and givekit still runs on Node 20. So nothing of
 * a database opened here is ever collected: the database, every statement it prepares, and the
 * statements its pragmas use. That is a few kilobytes per database; givekit prepares its
 * statements once per database, never per request.
 *
 * @example
 * const db = openSqlite("data/givekit.db");
 * db.pragma("journal_mode = WAL");
 */
import Database from "better-sqlite3";

const held = new Set<object>();

export function openSqlite(path: string, options?: Database.Options): Database.Database {
  const db = new Database(path, options);
  held.add(db);
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    held.add(statement);
    return statement;
  }) as typeof db.prepare;
  // The library's own pragma() prepares a statement nobody holds: read pragmas through ours.
  db.pragma = ((source: string, pragmaOptions?: Database.PragmaOptions) => {
    const statement = db.prepare(`PRAGMA ${source}`);
    if (!statement.reader) return (statement.run(), []);
    return pragmaOptions?.simple ? statement.pluck().get() : statement.all();
  }) as typeof db.pragma;
  return db;
}
