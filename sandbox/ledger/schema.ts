/**
 * The ledger's tables, and their rebuild from a fixture: a database built from another fixture
 * (or another version of the tables) starts again from the fixture alone.
 */
import type Database from "better-sqlite3";
import type { Fixture } from "../fixture";
import { ROOT_FUNDRAISER_NAME, rootFundraiserId } from "./types";

/** Bumped whenever the tables change; a database of another version is rebuilt. */
export const SCHEMA_VERSION = "3";

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

export function rebuild(
  db: Database.Database,
  fixture: Fixture,
  fingerprint: string,
  createdAt: string,
): void {
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
