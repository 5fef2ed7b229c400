/**
 * Transactions: one row per donation attempt, charged or not, numbered in order (a report is a
 * snapshot up to a number). A captainless team credited gets its hidden captain in the same
 * SQLite transaction.
 */
import type Database from "better-sqlite3";
import { type TeamRow, toTeam } from "./rows";
import { FIRST_TRANSACTION_ID, hiddenCaptainId, type NewTransaction, type TransactionRecord } from "./types";

export function ledgerTransactions(db: Database.Database) {
  const q = {
    team: db.prepare("SELECT * FROM teams WHERE id = ?"),
    insertFundraiser: db.prepare(
      `INSERT INTO fundraisers (id, account_id, keyword_id, name, team_id, is_root, hidden, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    setCaptain: db.prepare("UPDATE teams SET captain_id = ? WHERE id = ?"),
    nextSeq: db.prepare("SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM transactions"),
    insertTransaction: db.prepare(
      `INSERT INTO transactions (seq, transaction_id, account_id, keyword_id, shortcode, keyword, form_id, status,
        transaction_type, recurring_frequency, amount_cents, donation_cents, fee_cents, fee_rate, peer_fundraiser_id,
        peer_fundraiser_team_id, source, brand, last_4, anonymous, first_name, last_name, email, phone,
        street_address, city, state, zip, postal_code, country, memo, sms_opt_in_accepted, pledge_wall, authorization_code, created_at)
       VALUES (@seq, @transaction_id, @account_id, @keyword_id, @shortcode, @keyword, @form_id, @status,
        @transaction_type, @recurring_frequency, @amount_cents, @donation_cents, @fee_cents, @fee_rate,
        @peer_fundraiser_id, @peer_fundraiser_team_id, @source, @brand, @last_4, @anonymous, @first_name,
        @last_name, @email, @phone, @street_address, @city, @state, @zip, @postal_code, @country, @memo,
        @sms_opt_in_accepted, @pledge_wall, @authorization_code, @created_at)`,
    ),
    transactionsUpTo: db.prepare("SELECT * FROM transactions WHERE account_id = ? AND seq <= ? ORDER BY seq"),
  };

  const recordTransaction = db.transaction((input: NewTransaction): TransactionRecord => {
    if (input.hiddenCaptainFor) {
      const team = toTeam(q.team.get(input.hiddenCaptainFor.id) as TeamRow);
      if (team.captainId === null) {
        const captainId = hiddenCaptainId(team.id);
        q.insertFundraiser.run(
          captainId,
          team.accountId,
          team.keywordId,
          `${team.name} (captain)`,
          team.id,
          0,
          1,
          input.createdAt,
        );
        q.setCaptain.run(captainId, team.id);
      }
    }
    const { seq } = q.nextSeq.get() as { seq: number };
    const row: TransactionRecord = {
      seq,
      transaction_id: String(FIRST_TRANSACTION_ID - 1 + seq),
      account_id: input.accountId,
      keyword_id: input.keyword.id,
      shortcode: input.keyword.shortcode,
      keyword: input.keyword.keyword,
      form_id: input.formId,
      status: input.status,
      transaction_type: input.transactionType,
      recurring_frequency: input.recurringFrequency,
      amount_cents: input.donationCents + input.feeCents,
      donation_cents: input.donationCents,
      fee_cents: input.feeCents,
      fee_rate: input.feeRate,
      peer_fundraiser_id: input.peerFundraiserId,
      peer_fundraiser_team_id: input.peerFundraiserTeamId,
      source: input.source,
      brand: input.brand,
      last_4: input.last4,
      anonymous: input.anonymous ? 1 : 0,
      first_name: input.firstName,
      last_name: input.lastName,
      email: input.email,
      phone: input.phone,
      ...input.address,
      memo: input.memo,
      sms_opt_in_accepted: input.smsOptInAccepted ? 1 : 0,
      pledge_wall: input.pledgeWall ? 1 : 0,
      authorization_code: input.authorizationCode,
      created_at: input.createdAt,
    };
    q.insertTransaction.run(row);
    return row;
  });

  return {
    /** Records one donation attempt (and a hidden captain when one is due) in one SQLite transaction. */
    recordTransaction: (input: NewTransaction) => recordTransaction(input),
    /** The account's transactions up to a sequence number (a report's snapshot). */
    transactionsUpTo: (accountId: number, lastSeq: number) =>
      q.transactionsUpTo.all(accountId, lastSeq) as TransactionRecord[],
  };
}
