/**
 * Sandbox-only: accounts the size of real ones, built in seconds inside SQLite (a recursive
 * CTE, no row through JavaScript), and a keyword's own figures. Nothing here is part of the
 * upstream interface.
 */
import type Database from "better-sqlite3";
import { FIRST_TRANSACTION_ID } from "./types";

/** What POST /_sandbox/bulk adds to one keyword. */
export interface BulkRequest {
  keywordId: string;
  accountId: number;
  shortcode: string;
  keyword: string;
  peer: boolean;
  formId: string;
  /** Transactions to add (about 1 in 20 declined, the rest collected). */
  transactions: number;
  /** Spread evenly over this many days up to a minute ago. */
  days: number;
  /** Every donation of this amount in cents, rather than the usual mix. */
  amountCents?: number;
  /** Fundraisers and teams to add (peer keywords only). */
  fundraisers: number;
  teams: number;
}

/** The donation amounts bulk transactions take, in cents: $25 is 4 in 10 (the reconciler's worst case). */
const AMOUNTS_CENTS = [2500, 2500, 2500, 2500, 1000, 5000, 5000, 10_000, 25_000, 1500] as const;
/** Names bulk fundraisers are made of (first × last), so a prefix search has many matches. */
const FIRST_NAMES = ["Ana", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jon"];
const LAST_NAMES = ["Abbott", "Baker", "Costa", "Diaz", "Evans", "Fischer", "Garcia", "Huang", "Ivanov"];
const TEAM_WORDS = ["Sunrise", "River", "Harbor", "Summit", "Meadow", "Lantern", "Compass", "Orchard"];

export function ledgerBulk(db: Database.Database, now: () => Date) {
  return {
    /** The keyword's own figures: what was collected (fees included) and by how many donors. */
    keywordTotals(accountId: number, shortcode: string, keyword: string) {
      return db
        .prepare(
          `SELECT COALESCE(SUM(amount_cents), 0) AS cents, COUNT(*) AS collected,
             COUNT(DISTINCT lower(trim(email))) + SUM(CASE WHEN email IS NULL OR trim(email) = '' THEN 1 ELSE 0 END) AS donors
           FROM transactions WHERE account_id = ? AND shortcode = ? AND upper(keyword) = upper(?) AND status = 'collected'`,
        )
        .get(accountId, shortcode, keyword) as { cents: number; collected: number; donors: number | null };
    },

    /** Adds transactions, fundraisers and teams to one keyword in one SQLite transaction. */
    bulk: db.transaction((request: BulkRequest) => {
      const { seq: lastSeq } = db.prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM transactions").get() as {
        seq: number;
      };
      const count = request.transactions;
      const endMs = now().getTime() - 60_000;
      const stepMs = count > 0 ? Math.max(1, Math.floor((request.days * 86_400_000) / count)) : 0;
      const startMs = endMs - stepMs * count;
      // Donors give more than once: about 6 gifts in 10 are a first gift; 1 in 50 has no e-mail.
      const donorCount = Math.max(1, Math.floor(count * 0.6));
      if (count > 0) {
        db.prepare(
          `INSERT INTO transactions (seq, transaction_id, account_id, keyword_id, shortcode, keyword, form_id, status,
             transaction_type, recurring_frequency, amount_cents, donation_cents, fee_cents, fee_rate, peer_fundraiser_id,
             peer_fundraiser_team_id, source, brand, last_4, anonymous, first_name, last_name, email, phone,
             street_address, city, state, zip, postal_code, country, memo, sms_opt_in_accepted, pledge_wall,
             authorization_code, created_at)
           WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < CAST(@count AS INTEGER)),
             g AS (SELECT i, json_extract(@amounts, '$[' || (i % CAST(@amountCount AS INTEGER)) || ']') AS cents FROM n)
           SELECT CAST(@lastSeq AS INTEGER) + i, CAST(CAST(@firstId AS INTEGER) + CAST(@lastSeq AS INTEGER) + i - 1 AS TEXT), @accountId, @keywordId, @shortcode, @keyword,
             @formId, CASE WHEN i % 20 = 0 THEN 'declined' ELSE 'collected' END,
             CASE WHEN i % 10 = 3 THEN 'recurring_donation' ELSE 'donation' END,
             CASE WHEN i % 10 = 3 THEN 'monthly' ELSE NULL END,
             cents + CASE WHEN i % 4 = 1 THEN (cents * 3 + 50) / 100 ELSE 0 END, cents,
             CASE WHEN i % 4 = 1 THEN (cents * 3 + 50) / 100 ELSE 0 END, CASE WHEN i % 4 = 1 THEN '0.03' ELSE NULL END,
             @rootFundraiser, NULL, 'api', 'visa', '4242', CASE WHEN i % 7 = 0 THEN 1 ELSE 0 END,
             'Donor', 'Number' || (i % CAST(@donors AS INTEGER)), CASE WHEN i % 50 = 0 THEN NULL ELSE 'donor' || (i % CAST(@donors AS INTEGER)) || '@example.org' END,
             NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 'BULK' || i,
             strftime('%Y-%m-%dT%H:%M:%fZ', (CAST(@startMs AS INTEGER) + i * CAST(@stepMs AS INTEGER)) / 1000.0, 'unixepoch')
           FROM g`,
        ).run({
          count,
          lastSeq,
          firstId: FIRST_TRANSACTION_ID,
          amounts: JSON.stringify(request.amountCents ? [request.amountCents] : AMOUNTS_CENTS),
          amountCount: request.amountCents ? 1 : AMOUNTS_CENTS.length,
          accountId: request.accountId,
          keywordId: request.keywordId,
          shortcode: request.shortcode,
          keyword: request.keyword,
          formId: request.formId,
          rootFundraiser: request.peer ? `npo-${request.keywordId}` : null,
          donors: donorCount,
          startMs,
          stepMs,
        });
      }
      const teams = request.peer ? request.teams : 0;
      const fundraisers = request.peer ? request.fundraisers : 0;
      const createdAt = now().toISOString();
      const prefix = `bulk-${request.keywordId}-${lastSeq}`;
      if (teams > 0) {
        db.prepare(
          `INSERT INTO teams (id, account_id, keyword_id, name, captain_id, goal)
           WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < CAST(@teams AS INTEGER))
           SELECT @prefix || '-t' || i, @accountId, @keywordId,
             'Team ' || json_extract(@words, '$[' || (i % CAST(@wordCount AS INTEGER)) || ']') || ' ' || i, NULL, NULL FROM n`,
        ).run({
          teams,
          prefix,
          accountId: request.accountId,
          keywordId: request.keywordId,
          words: JSON.stringify(TEAM_WORDS),
          wordCount: TEAM_WORDS.length,
        });
      }
      if (fundraisers > 0) {
        db.prepare(
          `INSERT INTO fundraisers (id, account_id, keyword_id, name, team_id, is_root, hidden, created_at)
           WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < CAST(@fundraisers AS INTEGER))
           SELECT @prefix || '-f' || i, @accountId, @keywordId,
             json_extract(@first, '$[' || (i % CAST(@firstCount AS INTEGER)) || ']') || ' ' ||
               json_extract(@last, '$[' || ((i / CAST(@firstCount AS INTEGER)) % CAST(@lastCount AS INTEGER)) || ']') || ' ' || i,
             CASE WHEN CAST(@teams AS INTEGER) > 0 AND i % 3 <> 0 THEN @prefix || '-t' || (1 + i % CAST(@teams AS INTEGER)) ELSE NULL END,
             0, 0, @createdAt FROM n`,
        ).run({
          fundraisers,
          teams,
          prefix,
          accountId: request.accountId,
          keywordId: request.keywordId,
          first: JSON.stringify(FIRST_NAMES),
          firstCount: FIRST_NAMES.length,
          last: JSON.stringify(LAST_NAMES),
          lastCount: LAST_NAMES.length,
          createdAt,
        });
      }
      return {
        transactions: count,
        first_transaction_id: count > 0 ? String(FIRST_TRANSACTION_ID + lastSeq) : null,
        last_transaction_id: count > 0 ? String(FIRST_TRANSACTION_ID - 1 + lastSeq + count) : null,
        fundraisers,
        teams,
      };
    }),
  };
}
