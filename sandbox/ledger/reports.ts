/**
 * Reports: a snapshot of an account's transactions when it was asked for (up to the last
 * sequence number then), read a page at a time so an answer of a million rows is streamed,
 * never held.
 */
import type Database from "better-sqlite3";
import { toCents } from "../../contract/money";
import type { ReportRequest } from "../../contract/upstream";
import type { ReportRecord } from "./types";

/** MM/DD/YY (the upstream's report dates) → YYYY-MM-DD, or null when not a date. */
export function reportDate(value: string): string | null {
  const match = /^(\d\d)\/(\d\d)\/(\d\d)$/.exec(value);
  if (!match) return null;
  const iso = `20${match[3]}-${match[1]}-${match[2]}`;
  const date = new Date(`${iso}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

const list = (value: string | undefined) =>
  value
    ?.split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

const nextDay = (iso: string) =>
  new Date(Date.parse(`${iso}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/** The SQL condition and parameters of a report filter (checked already by the route). */
function where(filter: ReportRequest): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const statuses = list(filter.status);
  if (statuses && statuses.length > 0) {
    parts.push(`status IN (${statuses.map(() => "?").join(", ")})`);
    params.push(...statuses);
  }
  const types = list(filter.transaction_type);
  if (types && types.length > 0) {
    parts.push(`transaction_type IN (${types.map(() => "?").join(", ")})`);
    params.push(...types);
  }
  if (filter.amount_min !== undefined) {
    parts.push("amount_cents >= ?");
    params.push(toCents(filter.amount_min));
  }
  if (filter.amount_max !== undefined) {
    parts.push("amount_cents <= ?");
    params.push(toCents(filter.amount_max));
  }
  if (filter.keyword !== undefined) {
    parts.push("upper(keyword) = upper(?)");
    params.push(filter.keyword);
  }
  if (filter.shortcode !== undefined) {
    parts.push("shortcode = ?");
    params.push(filter.shortcode);
  }
  if (filter.last_4 !== undefined) {
    parts.push("last_4 = ?");
    params.push(filter.last_4);
  }
  const start = filter.start_date === undefined ? null : reportDate(filter.start_date);
  if (start) {
    parts.push("created_at >= ?");
    params.push(start);
  }
  const end = filter.end_date === undefined ? null : reportDate(filter.end_date);
  if (end) {
    parts.push("created_at < ?");
    params.push(nextDay(end));
  }
  return { sql: parts.map((part) => ` AND ${part}`).join(""), params };
}

export function ledgerReports(db: Database.Database) {
  const q = {
    lastSeq: db.prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM transactions"),
    insertReport: db.prepare(
      "INSERT INTO reports (account_id, filter, last_seq, created_at) VALUES (?, ?, ?, ?)",
    ),
    report: db.prepare(
      "SELECT id, account_id, filter, last_seq FROM reports WHERE id = ? AND account_id = ?",
    ),
  };
  const pages = new Map<string, Database.Statement>();
  return {
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

    /**
     * One page of a report's rows: the account's transactions up to its snapshot (`lastSeq`),
     * after `afterSeq`, matching the filter, in order.
     */
    reportPage<Row>(
      accountId: number,
      lastSeq: number,
      afterSeq: number,
      filter: ReportRequest,
      limit: number,
    ) {
      const condition = where(filter);
      const sql = `SELECT * FROM transactions WHERE account_id = ? AND seq > ? AND seq <= ?${condition.sql} ORDER BY seq LIMIT ?`;
      let statement = pages.get(sql);
      if (!statement) pages.set(sql, (statement = db.prepare(sql)));
      return statement.all(accountId, afterSeq, lastSeq, ...condition.params, limit) as Row[];
    },
  };
}
