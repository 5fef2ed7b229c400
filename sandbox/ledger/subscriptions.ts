/** SMS subscriptions: one per number and target (a list or a keyword) in an account. */
import type Database from "better-sqlite3";
import type { Keyword, SubscriptionRecord } from "./types";

export function ledgerSubscriptions(db: Database.Database) {
  const q = {
    insertSubscription: db.prepare(
      `INSERT INTO subscriptions (account_id, mobilenumber, list, keyword, shortcode, firstname, lastname, created_at, target)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, mobilenumber, target) DO NOTHING`,
    ),
    subscriptions: db.prepare(
      `SELECT a.name AS account, s.mobilenumber, s.list, s.keyword, s.shortcode, s.firstname, s.lastname, s.created_at
       FROM subscriptions s JOIN accounts a ON a.id = s.account_id ORDER BY s.id`,
    ),
  };
  return {
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
  };
}
