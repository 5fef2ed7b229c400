/**
 * The PostgreSQL store's peer lists: one snapshot per campaign (the latest), and the lease that
 * lets one proxy at a time read a campaign's lists from the upstream.
 */
import type { PeerListStore } from "../types";
import type { PgContext } from "./connection";

export function pgPeerLists({ query, lazy, now }: PgContext): PeerListStore {
  return {
    async peerSnapshotVersion(campaign) {
      const { rows } = await query<{ version: number; read_at: string }>(
        "SELECT version, read_at FROM peer_snapshots WHERE campaign = $1",
        [campaign],
      );
      return rows[0] ? { version: Number(rows[0].version), readAt: Number(rows[0].read_at) } : null;
    },

    async peerSnapshot(campaign) {
      const { rows } = await query<{ version: number; read_at: string; body: Buffer }>(
        "SELECT version, read_at, body FROM peer_snapshots WHERE campaign = $1",
        [campaign],
      );
      const row = rows[0];
      return row
        ? { version: Number(row.version), readAt: Number(row.read_at), body: new Uint8Array(row.body) }
        : null;
    },

    async leasePeerRead(campaign, owner, ms) {
      const at = now();
      // Losing this lease to a crash costs one more read of the lists: no need to wait for the disk.
      const result = await query(
        `INSERT INTO peer_read_leases (campaign, owner, lease_until) VALUES ($1, $2, $3)
         ON CONFLICT (campaign) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
         WHERE peer_read_leases.lease_until <= $4 OR peer_read_leases.owner = excluded.owner`,
        [campaign, owner, at + ms, at],
        lazy,
      );
      return result.rowCount === 1;
    },

    async savePeerSnapshot(campaign, readAt, body) {
      const { rows } = await query<{ version: number }>(
        `INSERT INTO peer_snapshots (campaign, version, read_at, body) VALUES ($1, 1, $2, $3)
         ON CONFLICT (campaign) DO UPDATE SET version = peer_snapshots.version + 1, read_at = excluded.read_at, body = excluded.body
         RETURNING version`,
        [campaign, readAt, Buffer.from(body)],
        lazy,
      );
      return Number(rows[0]!.version);
    },
  };
}
