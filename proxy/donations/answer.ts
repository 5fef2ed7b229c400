/**
 * What a donor is told of an attempt, built from its recorded state alone: the first answer and
 * every replay, on any proxy, are the same; and what the status route says of it.
 */
import type { DonationResponse, DonationStatusResponse, RecurringFrequency } from "../../contract/api";
import type { ErrorCode } from "../../contract/errors";
import { PROBLEM_CONTENT_TYPE, PROBLEM_KINDS, problemBody } from "../problem";
import type { AttemptRecord } from "../store";

/** What an answer is built from: the attempt's outcome and its money, no timestamps. */
export type AnsweredAttempt = Pick<
  AttemptRecord,
  | "reference"
  | "state"
  | "message"
  | "transaction_id"
  | "amount"
  | "fee_amount"
  | "recurring_frequency"
  | "problem_code"
  | "problem_field"
>;

/** The 202 body for a donation whose outcome is unknown. */
export function pendingBody(reference: string): string {
  const body: DonationResponse = { donation: { status: "Pending", reference } };
  return JSON.stringify(body);
}

function problemAnswer(code: ErrorCode, detail: string, errors?: Record<string, string[]>): Response {
  return new Response(JSON.stringify(problemBody(code, detail, errors)), {
    status: PROBLEM_KINDS[code].status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE },
  });
}

/** What a donor is told of an attempt that took no money: the problem's code, its words, its fields. */
export interface Refusal {
  code: ErrorCode;
  detail: string;
  errors?: Record<string, string[]>;
}

/**
 * The refusal an attempt's state is answered with, or null for one charged or not yet known: the
 * donor's answer and the `reason` of its `donation.declined` webhook are both made from it.
 *
 * @example
 * refusalOf({ state: "declined", problem_code: null })?.code; // "card_declined"
 */
export function refusalOf(
  attempt: Pick<AnsweredAttempt, "state" | "problem_code"> & { problem_field?: string | null },
): Refusal | null {
  switch (attempt.state) {
    case "declined":
      return { code: "card_declined", detail: "The card was declined. No money was taken." };
    case "failed":
      return { code: "payment_failed", detail: "The payment could not be processed. No money was taken." };
    case "not_charged":
      // Reconciled: the transactions report shows no charge. A replay says so, as the status route does.
      return { code: "payment_failed", detail: "The payment did not go through. No money was taken." };
    case "rejected": {
      const field = attempt.problem_field;
      if (attempt.problem_code === "invalid_peer" && field) {
        return {
          code: "invalid_peer",
          detail: "Choose a fundraiser or team of this campaign.",
          errors: { [field]: ["This fundraiser or team is not part of this campaign."] },
        };
      }
      if (attempt.problem_code === "validation_failed" && field) {
        return {
          code: "validation_failed",
          detail: "The card could not be used. Enter it again.",
          errors: { [field]: ["The card could not be used. Enter it again."] },
        };
      }
      return {
        code: "upstream_error",
        detail: "The fundraising service refused the donation. No money was taken.",
      };
    }
    default:
      return null;
  }
}

/**
 * The answer an attempt gives, built from its recorded state: the first time and on every
 * replay, on any proxy. An attempt whose outcome is not known (yet) is 202 Pending.
 *
 * @example
 * donationAnswer(await store.attempt("gk_…")).status; // 200, 402, 202, …
 */
export function donationAnswer(attempt: AnsweredAttempt): Response {
  if (attempt.state === "succeeded") {
    const body: DonationResponse = {
      donation: {
        status: "Success",
        message: attempt.message ?? "",
        transaction_id: attempt.transaction_id ?? "",
        amount: attempt.amount,
        fee_amount: attempt.fee_amount,
        // Recorded from a request the schema checked.
        recurring_frequency: attempt.recurring_frequency as RecurringFrequency | null,
      },
    };
    return Response.json(body, { status: 200 });
  }
  const refusal = refusalOf(attempt);
  if (refusal) return problemAnswer(refusal.code, refusal.detail, refusal.errors);
  return new Response(pendingBody(attempt.reference), {
    status: 202,
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * What a donor may learn of an attempt by its reference: its status and transaction id only.
 *
 * @example
 * donationStatus(attempt); // {donation: {status: "Success", reference: "gk_…", transaction_id: "100001"}}
 */
export function donationStatus(attempt: AttemptRecord): DonationStatusResponse {
  const { reference } = attempt;
  switch (attempt.state) {
    case "succeeded":
      return { donation: { status: "Success", reference, transaction_id: attempt.transaction_id ?? "" } };
    case "sending":
    case "unknown":
      return { donation: { status: "Pending", reference } };
    default:
      return { donation: { status: "NotCharged", reference } };
  }
}
