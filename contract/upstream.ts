/**
 * The upstream service's API v2 (docs/upstream-interface.md), as the sandbox enforces it and the
 * proxy calls it. Requests are strict (unknown fields are refused); responses are loose so
 * the proxy tolerates fields the real service adds. Shapes the contract leaves open are
 * chosen here and written down in sandbox/README.md.
 */
import * as z from "zod/mini";
import { AmountSchema } from "./money-schemas";
import { UPSTREAM_MEMO_MAX } from "./patterns";

/** An id or source name as the upstream takes it: letters, digits, '_', '.' and '-'. */
export const UPSTREAM_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** A card's expiry as the upstream takes it: MM/YYYY, and only that. */
export const UPSTREAM_EXPIRY_PATTERN = /^(0[1-9]|1[0-2])\/(\d{4})$/;
/** A mobile number as the upstream's subscribe takes it: ten digits, or eleven starting with 1. */
export const UPSTREAM_MOBILE_PATTERN = /^(1?)(\d{10})$/;

const Id = z.union([z.string().check(z.minLength(1), z.maxLength(64)), z.int()]);
const Text = (max = 255) => z.string().check(z.maxLength(max));

// ── Authorization (section 5) ────────────────────────────────────────────────────────────

export const TokenTypeSchema = z.enum(["private", "public", "session"]);
export type TokenType = z.infer<typeof TokenTypeSchema>;

const AUTHORIZATION = /^Token\s+token="([^"]+)"(?:\s*,\s*type="([a-z]+)")?\s*$/;

/** `Token token="abc", type="session"` → {token: "abc", type: "session"}; null if malformed. */
export function parseAuthorization(
  header: string | undefined | null,
): { token: string; type: string | undefined } | null {
  const match = header ? AUTHORIZATION.exec(header) : null;
  return match ? { token: match[1]!, type: match[2] } : null;
}

export function formatAuthorization(token: string, type?: TokenType): string {
  return type ? `Token token="${token}", type="${type}"` : `Token token="${token}"`;
}

// ── login_with_auth_token ────────────────────────────────────────────────────────────────

export const LoginResponseSchema = z.looseObject({
  user: z.looseObject({ session_token: z.string().check(z.minLength(1)) }),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

// ── create_payment_token ─────────────────────────────────────────────────────────────────

export const UpstreamPaymentTokenRequestSchema = z.strictObject({
  card_number: Text(32),
  cvv: Text(8),
  expiration_date: Text(16),
});
export type UpstreamPaymentTokenRequest = z.infer<typeof UpstreamPaymentTokenRequestSchema>;

export const UpstreamPaymentTokenResponseSchema = z.looseObject({
  credit_card_token: z.string().check(z.minLength(1)),
  brand: z.optional(z.string()),
  last_4: z.optional(z.string()),
});
export type UpstreamPaymentTokenResponse = z.infer<typeof UpstreamPaymentTokenResponseSchema>;

// ── donate (2.1, 2.2) ────────────────────────────────────────────────────────────────────

export const UpstreamDonationRequestSchema = z.strictObject({
  shortcode_string: z.optional(Text(32)),
  keyword_string: z.optional(Text(32)),
  event_id: z.optional(Text(64)),
  event_type: z.optional(Text(64)),
  form_id: z.optional(Text(64)),
  amount: AmountSchema,
  fee_rate: z.optional(z.number().check(z.gte(0), z.lte(1))),
  recurring_frequency: z.optional(Text(32)),
  memo: z.optional(Text(UPSTREAM_MEMO_MAX)),
  anonymous: z.optional(z.boolean()),
  sms_opt_in_accepted: z.optional(z.boolean()),
  pledge_wall: z.optional(Text(8)),
  source: z.optional(Text(64)),
  peer_fundraiser_id: z.optional(Id),
  peer_fundraiser_team_id: z.optional(Id),
  full_name: z.optional(Text(200)),
  first_name: z.optional(Text(100)),
  last_name: z.optional(Text(100)),
  email: z.optional(Text(254)),
  phone: z.optional(Text(32)),
  street_address: z.optional(Text(200)),
  city: z.optional(Text(100)),
  state: z.optional(Text(100)),
  zip: z.optional(Text(20)),
  country: z.optional(Text(100)),
  postal_code: z.optional(Text(20)),
  card_number: z.optional(Text(32)),
  cvv: z.optional(Text(8)),
  expiration_date: z.optional(Text(16)),
  credit_card_token: z.optional(Text(128)),
});
export type UpstreamDonationRequest = z.infer<typeof UpstreamDonationRequestSchema>;

export const DonationStatusSchema = z.enum(["Success", "Error", "Fatal"]);
export type DonationStatus = z.infer<typeof DonationStatusSchema>;

export const UpstreamDonationResponseSchema = z.looseObject({
  donation: z.looseObject({
    status: DonationStatusSchema,
    message: z.optional(z.string()),
    transaction_id: z.optional(z.union([z.string(), z.number()])),
  }),
});
export type UpstreamDonationResponse = z.infer<typeof UpstreamDonationResponseSchema>;

// ── subscribe (2.3, 2.4) ─────────────────────────────────────────────────────────────────

export const UpstreamSubscriptionRequestSchema = z.strictObject({
  mobilenumber: Text(32),
  list: z.optional(Text(100)),
  keyword: z.optional(Text(32)),
  shortcode: z.optional(Text(32)),
  firstname: z.optional(Text(100)),
  lastname: z.optional(Text(100)),
});
export type UpstreamSubscriptionRequest = z.infer<typeof UpstreamSubscriptionRequestSchema>;

export const UpstreamSubscriptionResponseSchema = z.looseObject({
  subscription: z.looseObject({
    status: z.number(),
    message: z.optional(z.string()),
    error: z.optional(z.unknown()),
  }),
});
export type UpstreamSubscriptionResponse = z.infer<typeof UpstreamSubscriptionResponseSchema>;

// ── fundraisers and teams ────────────────────────────────────────────────────────────────

export const UpstreamFundraiserSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  name: z.string(),
  keyword_id: z.optional(z.union([z.string(), z.number()])),
  team_id: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  is_root: z.optional(z.boolean()),
  hidden: z.optional(z.boolean()),
  total_raised: z.optional(z.string()),
});
export type UpstreamFundraiser = z.infer<typeof UpstreamFundraiserSchema>;

export const UpstreamFundraisersResponseSchema = z.looseObject({
  fundraisers: z.array(UpstreamFundraiserSchema),
});
/** The list's answer with its rows unread: the proxy streams them and checks each on its own. */
export const UpstreamFundraisersEnvelopeSchema = z.looseObject({ fundraisers: z.array(z.unknown()) });

export const UpstreamTeamSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  name: z.string(),
  campaign_keyword_id: z.optional(z.union([z.string(), z.number()])),
  captain_id: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  total_raised: z.optional(z.string()),
  team_fundraising_goal: z.optional(z.nullable(z.string())),
  call_to_action: z.optional(z.nullable(z.string())),
  alternative_team_id: z.optional(z.nullable(z.string())),
});
export type UpstreamTeam = z.infer<typeof UpstreamTeamSchema>;

export const UpstreamTeamsResponseSchema = z.looseObject({
  peer_fundraising_teams: z.array(UpstreamTeamSchema),
});
/** The list's answer with its rows unread (see UpstreamFundraisersEnvelopeSchema). */
export const UpstreamTeamsEnvelopeSchema = z.looseObject({ peer_fundraising_teams: z.array(z.unknown()) });

// ── reports ──────────────────────────────────────────────────────────────────────────────

/** Rows' status values: collected (money moved), declined (Error), failed (Fatal). */
export const TransactionStatusSchema = z.enum([
  "collected",
  "declined",
  "failed",
  "voided",
  "refunded",
  "pending",
]);
export type TransactionStatus = z.infer<typeof TransactionStatusSchema>;

/** A report filter's date, as the upstream's reports take it (`%m/%d/%y`). */
export const REPORT_DATE_PATTERN = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d\d$/;

/** A day (UTC) as a report filter's date: 2026-11-27 → "11/27/26". */
export function reportDateOf(time: Date): string {
  const iso = time.toISOString();
  return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(2, 4)}`;
}

export const ReportRequestSchema = z.strictObject({
  status: z.optional(Text(200)),
  transaction_type: z.optional(Text(200)),
  amount_min: z.optional(AmountSchema),
  amount_max: z.optional(AmountSchema),
  keyword: z.optional(Text(32)),
  shortcode: z.optional(Text(32)),
  last_4: z.optional(Text(4)),
  /** First and last day of the rows' creation, inclusive, as the upstream writes dates: MM/DD/YY. */
  start_date: z.optional(z.string().check(z.regex(REPORT_DATE_PATTERN, "A date as MM/DD/YY."))),
  end_date: z.optional(z.string().check(z.regex(REPORT_DATE_PATTERN, "A date as MM/DD/YY."))),
});
export type ReportRequest = z.infer<typeof ReportRequestSchema>;

export const ReportResultsRequestSchema = z.strictObject({ id: z.union([z.string(), z.int()]) });

export const TransactionRowSchema = z.looseObject({
  transaction_id: z.string(),
  /** What was charged: the donation plus any fee. */
  amount: z.string(),
  donation_amount: z.string(),
  fee_amount: z.string(),
  status: TransactionStatusSchema,
  transaction_type: z.string(),
  recurring_frequency: z.nullable(z.string()),
  shortcode: z.string(),
  keyword: z.string(),
  form_id: z.nullable(z.string()),
  peer_fundraiser_id: z.nullable(z.string()),
  peer_fundraiser_team_id: z.nullable(z.string()),
  source: z.string(),
  last_4: z.string(),
  anonymous: z.boolean(),
  first_name: z.nullable(z.string()),
  last_name: z.nullable(z.string()),
  created_at: z.string(),
});
export type TransactionRow = z.infer<typeof TransactionRowSchema>;

/** A report's answer; `transactions` appears once it is ready. */
const reportOf = <Row extends z.ZodMiniType>(row: Row) =>
  z.looseObject({
    report: z.looseObject({
      id: z.union([z.string(), z.number()]),
      status: z.string(),
      transactions: z.optional(z.array(row)),
    }),
  });

export const ReportResponseSchema = reportOf(TransactionRowSchema);
export type ReportResponse = z.infer<typeof ReportResponseSchema>;
/** The same with its rows unread: the proxy checks each row on its own, so one odd row spoils nothing. */
export const ReportEnvelopeSchema = reportOf(z.unknown());

// ── failures (a shape the contract leaves open; see sandbox/README.md) ───────────────────

/**
 * Any non-2xx answer: `{"error": {code, message, fields?}}`. donate failures also carry
 * `donation: {status: "Error", message}` and subscribe failures `subscription: {status, error}`.
 * Codes include invalid_peer (4.3 rule 5), session_expired, invalid_token, wrong_token_type.
 */
export const UpstreamErrorSchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.array(z.string()))),
  }),
});
export type UpstreamError = z.infer<typeof UpstreamErrorSchema>;
