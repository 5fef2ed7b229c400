/** Peer fundraisers and teams, and what each has raised. */
import type Database from "better-sqlite3";
import { type FundraiserRow, type TeamRow, toFundraiser, toTeam } from "./rows";

export function ledgerPeers(db: Database.Database) {
  const q = {
    fundraiser: db.prepare("SELECT * FROM fundraisers WHERE id = ?"),
    team: db.prepare("SELECT * FROM teams WHERE id = ?"),
    fundraisers: db.prepare("SELECT * FROM fundraisers WHERE account_id = ? ORDER BY is_root DESC, rowid"),
    teams: db.prepare("SELECT * FROM teams WHERE account_id = ? ORDER BY rowid"),
    fundraiserTotals: db.prepare(
      `SELECT peer_fundraiser_id AS id, SUM(donation_cents) AS cents, COUNT(*) AS n FROM transactions
       WHERE account_id = ? AND status = 'collected' AND peer_fundraiser_id IS NOT NULL GROUP BY peer_fundraiser_id`,
    ),
    teamTotals: db.prepare(
      `SELECT peer_fundraiser_team_id AS id, SUM(donation_cents) AS cents, COUNT(*) AS n FROM transactions
       WHERE account_id = ? AND status = 'collected' AND peer_fundraiser_team_id IS NOT NULL
       GROUP BY peer_fundraiser_team_id`,
    ),
  };
  return {
    /** Any account's fundraiser: callers check the account themselves. */
    fundraiser: (id: string) => {
      const row = q.fundraiser.get(id) as FundraiserRow | undefined;
      return row && toFundraiser(row);
    },
    team: (id: string) => {
      const row = q.team.get(id) as TeamRow | undefined;
      return row && toTeam(row);
    },
    fundraisers: (accountId: number) => (q.fundraisers.all(accountId) as FundraiserRow[]).map(toFundraiser),
    teams: (accountId: number) => (q.teams.all(accountId) as TeamRow[]).map(toTeam),
    /** Collected donation cents (fees excluded) and counts, by fundraiser and by team. */
    totals(accountId: number) {
      type Total = { id: string; cents: number; n: number };
      const byId = (rows: Total[]) =>
        new Map(rows.map((row) => [row.id, { cents: row.cents, count: row.n }]));
      return {
        fundraisers: byId(q.fundraiserTotals.all(accountId) as Total[]),
        teams: byId(q.teamTotals.all(accountId) as Total[]),
      };
    },
  };
}
