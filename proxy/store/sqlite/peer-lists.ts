/**
 * The SQLite store's peer lists: the latest snapshot per campaign and the read lease, as on
 * PostgreSQL, so both adapters keep one contract. One proxy holds a SQLite store, with nobody to
 * share a read with: the proxy (app.ts) shares its reads through the store on PostgreSQL only.
 */
import type Database from "better-sqlite3";
import type { PeerSnapshot } from "../types";

export function sqlitePeerLists(db: Database.Database) {
  const selectVersion = db.prepare<[string], { version: number; read_at: number }>(
    "SELECT version, read_at FROM peer_snapshots WHERE campaign = ?",
  );
  const selectSnapshot = db.prepare<[string], { version: number; read_at: number; body: Buffer }>(
    "SELECT version, read_at, body FROM peer_snapshots WHERE campaign = ?",
  );
  const takeLease = db.prepare<[{ campaign: string; owner: string; until: number; now: number }]>(
    `INSERT INTO peer_read_leases (campaign, owner, lease_until) VALUES (@campaign, @owner, @until)
     ON CONFLICT (campaign) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
     WHERE peer_read_leases.lease_until <= @now OR peer_read_leases.owner = excluded.owner`,
  );
  const save = db.prepare<[string, number, Buffer], { version: number }>(
    `INSERT INTO peer_snapshots (campaign, version, read_at, body) VALUES (?, 1, ?, ?)
     ON CONFLICT (campaign) DO UPDATE SET version = peer_snapshots.version + 1, read_at = excluded.read_at, body = excluded.body
     RETURNING version`,
  );
  return {
    version(campaign: string): Omit<PeerSnapshot, "body"> | null {
      const row = selectVersion.get(campaign);
      return row ? { version: row.version, readAt: row.read_at } : null;
    },
    snapshot(campaign: string): PeerSnapshot | null {
      const row = selectSnapshot.get(campaign);
      return row ? { version: row.version, readAt: row.read_at, body: new Uint8Array(row.body) } : null;
    },
    lease: (campaign: string, owner: string, ms: number, now: number) =>
      takeLease.run({ campaign, owner, until: now + ms, now }).changes === 1,
    save: (campaign: string, readAt: number, body: Uint8Array) =>
      save.get(campaign, readAt, Buffer.from(body))!.version,
  };
}
