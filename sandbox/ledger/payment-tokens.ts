/** Payment tokens: brand, last 4 and the card's outcome, never the card; the token only hashed. */
import { randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import { hashToken } from "./rows";
import type { CardOutcome, PaymentToken } from "./types";

export function ledgerPaymentTokens(db: Database.Database) {
  const q = {
    insertPaymentToken: db.prepare(
      "INSERT INTO payment_tokens (token_hash, account_id, brand, last_4, outcome, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    paymentToken: db.prepare("SELECT * FROM payment_tokens WHERE token_hash = ? AND account_id = ?"),
  };
  return {
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
  };
}
