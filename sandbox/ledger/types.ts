/**
 * The ledger's records as the sandbox's code sees them: the fixture's accounts, keywords and
 * peers, and what the API writes (payment tokens, transactions, subscriptions, reports).
 */
import { HIDDEN_CAPTAIN_PREFIX, ROOT_FUNDRAISER_PREFIX } from "../fixture";

/** The first transaction id handed out; ids count up from here. */
export const FIRST_TRANSACTION_ID = 100_001;
/** The name every root ("NPO Page") fundraiser gets. */
export const ROOT_FUNDRAISER_NAME = "NPO Page";
/** The id of a peer keyword's root fundraiser, the "NPO Page". */
export const rootFundraiserId = (keywordId: string) => `${ROOT_FUNDRAISER_PREFIX}${keywordId}`;
/** The id of the hidden captain made for a captainless team. */
export const hiddenCaptainId = (teamId: string) => `${HIDDEN_CAPTAIN_PREFIX}${teamId}`;

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
