/**
 * GET /api/v2/reports/transactions.json and GET /api/v2/reports/results.json, both with a JSON
 * body. A report is a snapshot of the account's transactions when it was requested; the
 * sandbox has it ready at once (status "complete").
 */
import { Hono } from "hono";
import { fromCents } from "../../contract/money";
import {
  type ReportRequest,
  ReportRequestSchema,
  ReportResultsRequestSchema,
  type TransactionRow,
  TransactionStatusSchema,
} from "../../contract/upstream";
import { requireToken } from "../auth";
import { ApiError, type SandboxEnv, type SandboxRuntime, readJsonBody, validate } from "../http";
import { reportDate } from "../ledger";
import type { TransactionRecord } from "../ledger";

export const TRANSACTION_TYPES = ["donation", "recurring_donation"] as const;
const REPORT_READY = "complete";

const commaList = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean);

/** Rows a report reads from the database at a time: one page of the streamed answer. */
const PAGE_ROWS = 1000;

function checkFilter(filter: ReportRequest): void {
  for (const name of ["start_date", "end_date"] as const) {
    const value = filter[name];
    if (value !== undefined && reportDate(value) === null) {
      const message = "Not a calendar date (MM/DD/YY).";
      throw new ApiError(400, "validation_failed", `${name}: ${message}`, { [name]: [message] });
    }
  }
  const statuses = commaList(filter.status) ?? [];
  const unknownStatus = statuses.filter(
    (status) => !TransactionStatusSchema.options.includes(status as never),
  );
  if (unknownStatus.length > 0) {
    const message = `Unknown status ${unknownStatus.join(", ")}; one of ${TransactionStatusSchema.options.join(", ")}.`;
    throw new ApiError(400, "validation_failed", `status: ${message}`, { status: [message] });
  }
  const types = commaList(filter.transaction_type) ?? [];
  const unknownType = types.filter((type) => !(TRANSACTION_TYPES as readonly string[]).includes(type));
  if (unknownType.length > 0) {
    const message = `Unknown type ${unknownType.join(", ")}; one of ${TRANSACTION_TYPES.join(", ")}.`;
    throw new ApiError(400, "validation_failed", `transaction_type: ${message}`, {
      transaction_type: [message],
    });
  }
}

function toRow(row: TransactionRecord): TransactionRow & Record<string, unknown> {
  return {
    transaction_id: row.transaction_id,
    amount: fromCents(row.amount_cents),
    donation_amount: fromCents(row.donation_cents),
    fee_amount: fromCents(row.fee_cents),
    fee_rate: row.fee_rate,
    status: row.status as TransactionRow["status"],
    transaction_type: row.transaction_type,
    recurring_frequency: row.recurring_frequency,
    shortcode: row.shortcode,
    keyword: row.keyword,
    keyword_id: row.keyword_id,
    form_id: row.form_id,
    peer_fundraiser_id: row.peer_fundraiser_id,
    peer_fundraiser_team_id: row.peer_fundraiser_team_id,
    source: row.source,
    brand: row.brand,
    last_4: row.last_4,
    authorization_code: row.authorization_code,
    anonymous: row.anonymous === 1,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    street_address: row.street_address,
    city: row.city,
    state: row.state,
    zip: row.zip,
    postal_code: row.postal_code,
    country: row.country,
    memo: row.memo,
    sms_opt_in_accepted: row.sms_opt_in_accepted === 1,
    pledge_wall: row.pledge_wall === 1,
    created_at: row.created_at,
  };
}

export function reportRoutes(runtime: SandboxRuntime): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  const auth = requireToken(runtime, "report");

  app.get("/api/v2/reports/transactions.json", auth, async (c) => {
    const filter = validate(ReportRequestSchema, (await readJsonBody(c)) ?? {});
    checkFilter(filter);
    const id = runtime.ledger.createReport(c.get("account").id, filter, runtime.now().toISOString());
    return c.json({ report: { id, status: REPORT_READY } });
  });

  app.get("/api/v2/reports/results.json", auth, async (c) => {
    const raw = await readJsonBody(c);
    if (raw === undefined) throw new ApiError(400, "validation_failed", 'Send the report\'s id: {"id": …}.');
    const { id } = validate(ReportResultsRequestSchema, raw);
    const report = /^\d+$/.test(String(id))
      ? runtime.ledger.report(Number(id), c.get("account").id)
      : undefined;
    if (!report) throw new ApiError(404, "report_not_found", `No report ${String(id)} for this account.`);
    const filter = JSON.parse(report.filter) as ReportRequest;
    // Streamed a page at a time, each page read whole (no cursor stays open across a wait).
    const encoder = new TextEncoder();
    const ledger = runtime.ledger;
    let afterSeq = 0;
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (afterSeq === 0 && first) {
          const head = JSON.stringify({ id: report.id, status: REPORT_READY, filters: filter });
          controller.enqueue(encoder.encode(`{"report":${head.slice(0, -1)},"transactions":[`));
        }
        const page = ledger.reportPage<TransactionRecord>(
          report.accountId,
          report.lastSeq,
          afterSeq,
          filter,
          PAGE_ROWS,
        );
        if (page.length === 0) {
          controller.enqueue(encoder.encode("]}}"));
          controller.close();
          return;
        }
        let text = "";
        for (const row of page) {
          text += (first ? "" : ",") + JSON.stringify(toRow(row));
          first = false;
        }
        afterSeq = page.at(-1)!.seq;
        controller.enqueue(encoder.encode(text));
      },
    });
    return c.body(body, 200, { "Content-Type": "application/json; charset=UTF-8" });
  });
  return app;
}
