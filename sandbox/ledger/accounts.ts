/** Accounts found by their tokens, and the session tokens a login hands out. */
import { randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import { hashToken } from "./rows";
import type { Account } from "./types";

/** Expired sessions are kept this long (so they answer "expired", not "unknown"), then purged. */
const EXPIRED_SESSION_KEPT_MS = 24 * 3600 * 1000;

export function ledgerAccounts(db: Database.Database, now: () => Date) {
  const q = {
    accountByPrivate: db.prepare("SELECT id, name FROM accounts WHERE private_token = ?"),
    accountByPublic: db.prepare("SELECT id, name FROM accounts WHERE public_token = ?"),
    insertSession: db.prepare("INSERT INTO sessions (token_hash, account_id, expires_at) VALUES (?, ?, ?)"),
    session: db.prepare(
      "SELECT s.expires_at, a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?",
    ),
    purgeSessions: db.prepare("DELETE FROM sessions WHERE expires_at < ?"),
  };
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
  };
}
