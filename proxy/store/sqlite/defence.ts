/** The SQLite store's defence modes (proxy/store/defence.ts). */
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { CROSS_DEFENCE_SQL, END_DEFENCES_SQL, toDefenceState } from "../defence";

interface Row {
  scope: string;
  signal: string;
  value: number;
  since_ms: number;
  until_ms: number;
  ended: number;
  started_by: string;
}

const sqlite = (n: number) => `@p${n}`;
/** better-sqlite3 binds numbered parameters by name: { p1, p2, … }. */
const named = (...values: unknown[]) => Object.fromEntries(values.map((value, i) => [`p${i + 1}`, value]));

export function sqliteDefence(db: Database.Database) {
  const cross = db.prepare<[Record<string, unknown>], Row>(CROSS_DEFENCE_SQL("MAX", sqlite));
  const end = db.prepare<[Record<string, unknown>], Row>(END_DEFENCES_SQL(sqlite));
  const all = db.prepare<[], Row>("SELECT * FROM defence_modes ORDER BY scope");
  return {
    cross(scope: string, signal: string, value: number, quietMs: number, now: number) {
      const nonce = randomUUID();
      const row = cross.get(named(scope, signal, value, now, now + quietMs, nonce))!;
      return { entered: row.started_by === nonce, state: toDefenceState(row) };
    },
    end: (now: number) => end.all(named(now)).map(toDefenceState),
    states(scopes?: string[]) {
      const rows = all.all().map(toDefenceState);
      return scopes ? rows.filter((row) => scopes.includes(row.scope)) : rows;
    },
  };
}
