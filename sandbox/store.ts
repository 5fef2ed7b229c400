/**
 * The sandbox's state in SQLite (better-sqlite3): the fixture's records plus everything the
 * API creates (sessions, payment tokens, transactions, subscriptions, reports).
 * Card numbers and CVVs are never stored: a payment token keeps brand, last 4 and outcome.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { openSqlite } from "../sqlite/open";
import { createBulk } from "./bulk";
import { type Fixture, HIDDEN_CAPTAIN_PREFIX, ROOT_FUNDRAISER_PREFIX } from "./fixture";

/** Bumped whenever the tables change; a database of another version is rebuilt. */
const SCHEMA_VERSION = "3";
/** The first transaction id handed out; ids count up from here. */
export const FIRST_TRANSACTION_ID = 100_001;
/** Expired sessions are kept this long (so they answer "expired", not "unknown"), then purged. */
const EXPIRED_SESSION_KEPT_MS = 24 * 3600 * 1000;
/** The name every root ("NPO Page") fundraiser gets. */
export const ROOT_FUNDRAISER_NAME = "NPO Page";

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, private_token TEXT NOT NULL UNIQUE, public_token TEXT NOT NULL UNIQUE
);
CREATE TABLE keywords (
  id TEXT PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(id), shortcode TEXT NOT NULL,
  keyword TEXT NOT NULL, peer INTEGER NOT NULL, event_id TEXT, event_type TEXT
);
CREATE UNIQUE INDEX keywords_target ON keywords (shortcode, upper(keyword));
CREATE TABLE forms (
  keyword_id TEXT NOT NULL REFERENCES keywords(id), id TEXT NOT NULL, name TEXT NOT NULL,
  is_default INTEGER NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (keyword_id, id)
);
CREATE TABLE teams (
  id TEXT PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(id),
  keyword_id TEXT NOT NULL REFERENCES keywords(id), name TEXT NOT NULL, captain_id TEXT, goal TEXT
);
CREATE TABLE fundraisers (
  id TEXT PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(id),
  keyword_id TEXT NOT NULL REFERENCES keywords(id), name TEXT NOT NULL, team_id TEXT,
  is_root INTEGER NOT NULL DEFAULT 0, hidden INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL
);
CREATE TABLE lists (account_id INTEGER NOT NULL REFERENCES accounts(id), name TEXT NOT NULL, PRIMARY KEY (account_id, name));
CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, account_id INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE payment_tokens (
  token_hash TEXT PRIMARY KEY, account_id INTEGER NOT NULL, brand TEXT NOT NULL, last_4 TEXT NOT NULL,
  outcome TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE transactions (
  seq INTEGER PRIMARY KEY, transaction_id TEXT NOT NULL UNIQUE, account_id INTEGER NOT NULL,
  keyword_id TEXT NOT NULL, shortcode TEXT NOT NULL, keyword TEXT NOT NULL, form_id TEXT,
  status TEXT NOT NULL, transaction_type TEXT NOT NULL, recurring_frequency TEXT,
  amount_cents INTEGER NOT NULL, donation_cents INTEGER NOT NULL, fee_cents INTEGER NOT NULL, fee_rate TEXT,
  peer_fundraiser_id TEXT, peer_fundraiser_team_id TEXT, source TEXT NOT NULL, brand TEXT NOT NULL,
  last_4 TEXT NOT NULL, anonymous INTEGER NOT NULL, first_name TEXT, last_name TEXT, email TEXT, phone TEXT,
  street_address TEXT, city TEXT, state TEXT, zip TEXT, postal_code TEXT, country TEXT, memo TEXT, sms_opt_in_accepted INTEGER NOT NULL, pledge_wall INTEGER NOT NULL, authorization_code TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, mobilenumber TEXT NOT NULL, list TEXT, keyword TEXT,
  shortcode TEXT, firstname TEXT, lastname TEXT, created_at TEXT NOT NULL,
  target TEXT NOT NULL, UNIQUE (account_id, mobilenumber, target)
);
CREATE TABLE reports (
  id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, filter TEXT NOT NULL, last_seq INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
`;

export interface Account {
  id: number;
  name: string;
}
export interface Keyword {
  id: string;
  accountId: number;
  shortcode: string;
  keyword: string;
  peer: boolean;
  eventId: string | null;
  eventType: string | null;
}
export interface Form {
  id: string;
  name: string;
  isDefault: boolean;
}
export interface Fundraiser {
  id: string;
  accountId: number;
  keywordId: string;
  name: string;
  teamId: string | null;
  isRoot: boolean;
  hidden: boolean;
}
export interface Team {
  id: string;
  accountId: number;
  keywordId: string;
  name: string;
  captainId: string | null;
  /** The team's fundraising goal as a decimal string, or null. */
  goal: string | null;
}
export type CardOutcome = "success" | "declined" | "fatal";
export interface PaymentToken {
  token: string;
  accountId: number;
  brand: string;
  last4: string;
  outcome: CardOutcome;
}
export type TransactionStatus = "collected" | "declined" | "failed";

export interface NewTransaction {
  accountId: number;
  keyword: Keyword;
  formId: string;
  status: TransactionStatus;
  transactionType: string;
  recurringFrequency: string | null;
  donationCents: number;
  feeCents: number;
  feeRate: string | null;
  peerFundraiserId: string | null;
  peerFundraiserTeamId: string | null;
  /** A captainless team credited: make its hidden captain (in the same transaction). */
  hiddenCaptainFor: Team | null;
  source: string;
  brand: string;
  last4: string;
  anonymous: boolean;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  /** The donor's address, each part as sent (null when not sent). */
  address: DonorAddress;
  memo: string | null;
  smsOptInAccepted: boolean;
  pledgeWall: boolean;
  authorizationCode: string | null;
  createdAt: string;
}

/** The address parts a donation may carry, as the upstream API names them. */
export const ADDRESS_FIELDS = ["street_address", "city", "state", "zip", "postal_code", "country"] as const;
export type DonorAddress = Record<(typeof ADDRESS_FIELDS)[number], string | null>;

export interface TransactionRecord extends DonorAddress {
  seq: number;
  transaction_id: string;
  account_id: number;
  keyword_id: string;
  shortcode: string;
  keyword: string;
  form_id: string | null;
  status: string;
  transaction_type: string;
  recurring_frequency: string | null;
  amount_cents: number;
  donation_cents: number;
  fee_cents: number;
  fee_rate: string | null;
  peer_fundraiser_id: string | null;
  peer_fundraiser_team_id: string | null;
  source: string;
  brand: string;
  last_4: string;
  anonymous: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  memo: string | null;
  sms_opt_in_accepted: number;
  pledge_wall: number;
  authorization_code: string | null;
  created_at: string;
}

export interface SubscriptionRecord {
  account: string;
  mobilenumber: string;
  list: string | null;
  keyword: string | null;
  shortcode: string | null;
  firstname: string | null;
  lastname: string | null;
  created_at: string;
}

export interface ReportRecord {
  id: number;
  accountId: number;
  filter: string;
  lastSeq: number;
}

interface KeywordRow {
  id: string;
  account_id: number;
  shortcode: string;
  keyword: string;
  peer: number;
  event_id: string | null;
  event_type: string | null;
}
interface FundraiserRow {
  id: string;
  account_id: number;
  keyword_id: string;
  name: string;
  team_id: string | null;
  is_root: number;
  hidden: number;
}
interface TeamRow {
  id: string;
  account_id: number;
  keyword_id: string;
  name: string;
  captain_id: string | null;
  goal: string | null;
}

const toKeyword = (row: KeywordRow): Keyword => ({
  id: row.id,
  accountId: row.account_id,
  shortcode: row.shortcode,
  keyword: row.keyword,
  peer: row.peer === 1,
  eventId: row.event_id,
  eventType: row.event_type,
});
const toFundraiser = (row: FundraiserRow): Fundraiser => ({
  id: row.id,
  accountId: row.account_id,
  keywordId: row.keyword_id,
  name: row.name,
  teamId: row.team_id,
  isRoot: row.is_root === 1,
  hidden: row.hidden === 1,
});
const toTeam = (row: TeamRow): Team => ({
  id: row.id,
  accountId: row.account_id,
  keywordId: row.keyword_id,
  name: row.name,
  captainId: row.captain_id,
  goal: row.goal,
});

/** Session and payment tokens are kept only as hashes, so the database file holds no usable secret. */
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The id of a peer keyword's root fundraiser, the "NPO Page". */
export const rootFundraiserId = (keywordId: string) => `${ROOT_FUNDRAISER_PREFIX}${keywordId}`;
/** The id of the hidden captain made for a captainless team. */
export const hiddenCaptainId = (teamId: string) => `${HIDDEN_CAPTAIN_PREFIX}${teamId}`;

export type Store = ReturnType<typeof openStore>;

/**
 * Opens (or creates) the database and loads the fixture. A file database that was built from
 * the same fixture keeps its state across restarts; one built from another fixture is rebuilt.
 *
 * @example
 * const store = openStore(":memory:", loadFixtureFile("sandbox/fixtures/demo.json"));
 */
export function openStore(path: string, fixture: Fixture, now: () => Date = () => new Date()) {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = openSqlite(path);
  db.pragma("journal_mode = WAL");

  const fingerprint = createHash("sha256")
    .update(SCHEMA_VERSION)
    .update(JSON.stringify(fixture))
    .digest("hex");
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  const current = hasMeta
    ? (db.prepare("SELECT value FROM meta WHERE key = 'fingerprint'").get() as { value: string } | undefined)
    : undefined;
  if (current?.value !== fingerprint) {
    // Foreign keys cannot be switched inside a transaction; rebuild drops every table.
    db.pragma("foreign_keys = OFF");
    rebuild(db, fixture, fingerprint, now().toISOString());
  }
  db.pragma("foreign_keys = ON");

  const q = {
    accountByPrivate: db.prepare("SELECT id, name FROM accounts WHERE private_token = ?"),
    accountByPublic: db.prepare("SELECT id, name FROM accounts WHERE public_token = ?"),
    insertSession: db.prepare("INSERT INTO sessions (token_hash, account_id, expires_at) VALUES (?, ?, ?)"),
    session: db.prepare(
      "SELECT s.expires_at, a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?",
    ),
    purgeSessions: db.prepare("DELETE FROM sessions WHERE expires_at < ?"),
    keywordByTarget: db.prepare(
      "SELECT * FROM keywords WHERE account_id = ? AND shortcode = ? AND upper(keyword) = upper(?)",
    ),
    keywordByEvent: db.prepare(
      "SELECT * FROM keywords WHERE account_id = ? AND event_id = ? AND event_type = ?",
    ),
    keywordById: db.prepare("SELECT * FROM keywords WHERE account_id = ? AND id = ?"),
    keywordAnywhere: db.prepare("SELECT * FROM keywords WHERE shortcode = ? AND upper(keyword) = upper(?)"),
    keywords: db.prepare("SELECT * FROM keywords WHERE account_id = ? ORDER BY rowid"),
    forms: db.prepare("SELECT id, name, is_default FROM forms WHERE keyword_id = ? ORDER BY position"),
    fundraiser: db.prepare("SELECT * FROM fundraisers WHERE id = ?"),
    team: db.prepare("SELECT * FROM teams WHERE id = ?"),
    fundraisers: db.prepare("SELECT * FROM fundraisers WHERE account_id = ? ORDER BY is_root DESC, rowid"),
    teams: db.prepare("SELECT * FROM teams WHERE account_id = ? ORDER BY rowid"),
    insertFundraiser: db.prepare(
      `INSERT INTO fundraisers (id, account_id, keyword_id, name, team_id, is_root, hidden, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    setCaptain: db.prepare("UPDATE teams SET captain_id = ? WHERE id = ?"),
    fundraiserTotals: db.prepare(
      `SELECT peer_fundraiser_id AS id, SUM(donation_cents) AS cents, COUNT(*) AS n FROM transactions
       WHERE account_id = ? AND status = 'collected' AND peer_fundraiser_id IS NOT NULL GROUP BY peer_fundraiser_id`,
    ),
    teamTotals: db.prepare(
      `SELECT peer_fundraiser_team_id AS id, SUM(donation_cents) AS cents, COUNT(*) AS n FROM transactions
       WHERE account_id = ? AND status = 'collected' AND peer_fundraiser_team_id IS NOT NULL
       GROUP BY peer_fundraiser_team_id`,
    ),
    list: db.prepare("SELECT name FROM lists WHERE account_id = ? AND lower(name) = lower(?)"),
    insertPaymentToken: db.prepare(
      "INSERT INTO payment_tokens (token_hash, account_id, brand, last_4, outcome, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    paymentToken: db.prepare("SELECT * FROM payment_tokens WHERE token_hash = ? AND account_id = ?"),
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
    lastSeq: db.prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM transactions"),
    insertSubscription: db.prepare(
      `INSERT INTO subscriptions (account_id, mobilenumber, list, keyword, shortcode, firstname, lastname, created_at, target)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, mobilenumber, target) DO NOTHING`,
    ),
    subscriptions: db.prepare(
      `SELECT a.name AS account, s.mobilenumber, s.list, s.keyword, s.shortcode, s.firstname, s.lastname, s.created_at
       FROM subscriptions s JOIN accounts a ON a.id = s.account_id ORDER BY s.id`,
    ),
    insertReport: db.prepare(
      "INSERT INTO reports (account_id, filter, last_seq, created_at) VALUES (?, ?, ?, ?)",
    ),
    report: db.prepare(
      "SELECT id, account_id, filter, last_seq FROM reports WHERE id = ? AND account_id = ?",
    ),
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
    accountByPrivateToken: (token: string) => q.accountByPrivate.get(token) as Account | undefined,
    accountByPublicToken: (token: string) => q.accountByPublic.get(token) as Account | undefined,

    /** A new session token for the account, valid until `expiresAt` (ms since the epoch). */
    createSession(accountId: number, expiresAt: number): string {
      q.purgeSessions.run(now().getTime() - EXPIRED_SESSION_KEPT_MS);
      const token = randomBytes(24).toString("base64url");
      q.insertSession.run(hashToken(token), accountId, expiresAt);
      return token;
    },
    /** The session's account and expiry, or undefined for a token never issued. */
    session(token: string): { account: Account; expiresAt: number } | undefined {
      const row = q.session.get(hashToken(token)) as
        | { expires_at: number; id: number; name: string }
        | undefined;
      return row && { account: { id: row.id, name: row.name }, expiresAt: row.expires_at };
    },

    keywordByTarget: (accountId: number, shortcode: string, keyword: string) => {
      const row = q.keywordByTarget.get(accountId, shortcode, keyword) as KeywordRow | undefined;
      return row && toKeyword(row);
    },
    keywordByEvent: (accountId: number, eventId: string, eventType: string) => {
      const row = q.keywordByEvent.get(accountId, eventId, eventType) as KeywordRow | undefined;
      return row && toKeyword(row);
    },
    keywordById: (accountId: number, id: string) => {
      const row = q.keywordById.get(accountId, id) as KeywordRow | undefined;
      return row && toKeyword(row);
    },
    /** Sandbox-only routes: the keyword in whichever account has it. */
    keywordAnywhere: (shortcode: string, keyword: string) => {
      const row = q.keywordAnywhere.get(shortcode, keyword) as KeywordRow | undefined;
      return row && toKeyword(row);
    },
    keywords: (accountId: number) => (q.keywords.all(accountId) as KeywordRow[]).map(toKeyword),
    forms: (keywordId: string): Form[] =>
      (q.forms.all(keywordId) as { id: string; name: string; is_default: number }[]).map((row) => ({
        id: row.id,
        name: row.name,
        isDefault: row.is_default === 1,
      })),
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
    /** The list's name as the account spells it, or undefined. */
    list: (accountId: number, name: string) =>
      (q.list.get(accountId, name) as { name: string } | undefined)?.name,

    createPaymentToken(input: Omit<PaymentToken, "token">, createdAt: string): string {
      const token = `tok_${randomBytes(12).toString("hex")}`;
      q.insertPaymentToken.run(
        hashToken(token),
        input.accountId,
        input.brand,
        input.last4,
        input.outcome,
        createdAt,
      );
      return token;
    },
    paymentToken(token: string, accountId: number): PaymentToken | undefined {
      const row = q.paymentToken.get(hashToken(token), accountId) as
        | { account_id: number; brand: string; last_4: string; outcome: CardOutcome }
        | undefined;
      return (
        row && {
          token,
          accountId: row.account_id,
          brand: row.brand,
          last4: row.last_4,
          outcome: row.outcome,
        }
      );
    },

    /** Records one donation attempt (and a hidden captain when one is due) in one SQLite transaction. */
    recordTransaction: (input: NewTransaction) => recordTransaction(input),
    /** The account's transactions up to a sequence number (a report's snapshot). */
    transactionsUpTo: (accountId: number, lastSeq: number) =>
      q.transactionsUpTo.all(accountId, lastSeq) as TransactionRecord[],

    /** Adds a subscription; false when the number was already subscribed to that target. */
    addSubscription(input: {
      accountId: number;
      mobilenumber: string;
      list: string | null;
      keyword: Keyword | null;
      firstname: string | null;
      lastname: string | null;
      createdAt: string;
    }): boolean {
      const target = input.list !== null ? `list:${input.list}` : `keyword:${input.keyword!.id}`;
      const result = q.insertSubscription.run(
        input.accountId,
        input.mobilenumber,
        input.list,
        input.keyword?.keyword ?? null,
        input.keyword?.shortcode ?? null,
        input.firstname,
        input.lastname,
        input.createdAt,
        target,
      );
      return result.changes === 1;
    },
    subscriptions: () => q.subscriptions.all() as SubscriptionRecord[],

    createReport(accountId: number, filter: unknown, createdAt: string): number {
      const { seq } = q.lastSeq.get() as { seq: number };
      return Number(q.insertReport.run(accountId, JSON.stringify(filter), seq, createdAt).lastInsertRowid);
    },
    report(id: number, accountId: number): ReportRecord | undefined {
      const row = q.report.get(id, accountId) as
        | { id: number; account_id: number; filter: string; last_seq: number }
        | undefined;
      return row && { id: row.id, accountId: row.account_id, filter: row.filter, lastSeq: row.last_seq };
    },

    /** Sandbox-only: big accounts and report pages (sandbox/bulk.ts). */
    ...createBulk(db, now, FIRST_TRANSACTION_ID),

    close: () => db.close(),
  };
}

function rebuild(db: Database.Database, fixture: Fixture, fingerprint: string, createdAt: string): void {
  db.transaction(() => {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    for (const { name } of tables) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    db.exec(SCHEMA);
    db.prepare("INSERT INTO meta (key, value) VALUES ('fingerprint', ?)").run(fingerprint);

    const insertAccount = db.prepare(
      "INSERT INTO accounts (name, private_token, public_token) VALUES (?, ?, ?)",
    );
    const insertKeyword = db.prepare(
      "INSERT INTO keywords (id, account_id, shortcode, keyword, peer, event_id, event_type) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const insertForm = db.prepare(
      "INSERT INTO forms (keyword_id, id, name, is_default, position) VALUES (?, ?, ?, ?, ?)",
    );
    const insertTeam = db.prepare(
      "INSERT INTO teams (id, account_id, keyword_id, name, captain_id, goal) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const insertFundraiser = db.prepare(
      `INSERT INTO fundraisers (id, account_id, keyword_id, name, team_id, is_root, hidden, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?)`,
    );
    const insertList = db.prepare("INSERT INTO lists (account_id, name) VALUES (?, ?)");

    for (const account of fixture.accounts) {
      const accountId = Number(
        insertAccount.run(account.name, account.privateToken, account.publicToken).lastInsertRowid,
      );
      for (const keyword of account.keywords) {
        insertKeyword.run(
          keyword.id,
          accountId,
          keyword.shortcode,
          keyword.keyword,
          keyword.peerFundraising ? 1 : 0,
          keyword.eventId,
          keyword.eventType,
        );
        // The default form is the one flagged default, else the first.
        const hasDefault = keyword.forms.some((form) => form.default);
        keyword.forms.forEach((form, position) => {
          const isDefault = hasDefault ? form.default : position === 0;
          insertForm.run(keyword.id, form.id, form.name, isDefault ? 1 : 0, position);
        });
        if (keyword.peerFundraising) {
          insertFundraiser.run(
            rootFundraiserId(keyword.id),
            accountId,
            keyword.id,
            ROOT_FUNDRAISER_NAME,
            null,
            1,
            createdAt,
          );
        }
      }
      for (const team of account.teams) {
        insertTeam.run(team.id, accountId, team.keywordId, team.name, team.captainId, team.goal);
      }
      for (const fundraiser of account.fundraisers) {
        insertFundraiser.run(
          fundraiser.id,
          accountId,
          fundraiser.keywordId,
          fundraiser.name,
          fundraiser.teamId,
          0,
          createdAt,
        );
      }
      for (const list of account.lists) insertList.run(accountId, list);
    }
  })();
}
