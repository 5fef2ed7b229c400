/**
 * The donate operation's rules (4.3 attribution, 4.4 target, amount, card and name), turned
 * into a plan that the ledger records in one transaction. Every refusal happens here, before
 * anything is written, so a rejected request charges nothing.
 */
import { feeCents, toCents } from "../contract/money";
import {
  UPSTREAM_ID_PATTERN,
  UpstreamDonationRequestSchema,
  type UpstreamDonationRequest,
} from "../contract/upstream";
import { checkCard, type CheckedCard } from "./cards";
import { ApiError, validate } from "./http";
import {
  ADDRESS_FIELDS,
  type Account,
  type DonorAddress,
  type Keyword,
  type NewTransaction,
  type Ledger,
  type Team,
  hiddenCaptainId,
  rootFundraiserId,
} from "./ledger";

/** Recurring frequencies the sandbox accepts (compared without case). */
export const RECURRING_FREQUENCIES = ["weekly", "monthly", "quarterly", "annually"] as const;

export type DonationPlan = Omit<NewTransaction, "status" | "authorizationCode" | "createdAt"> & {
  outcome: CheckedCard["outcome"];
  amountCents: number;
};

const bad = (field: string, message: string, code = "validation_failed") =>
  new ApiError(400, code, `${field}: ${message}`, { [field]: [message] });

/** The keyword a donation targets: event_id + event_type, else shortcode_string + keyword_string. */
export function resolveTarget(ledger: Ledger, account: Account, body: UpstreamDonationRequest): Keyword {
  if (body.event_id !== undefined || body.event_type !== undefined) {
    if (body.event_id === undefined) throw bad("event_id", "event_type is sent only with event_id.");
    if (body.event_type === undefined) throw bad("event_type", "event_type is required with event_id.");
    const keyword = ledger.keywordByEvent(account.id, body.event_id, body.event_type);
    if (!keyword) {
      throw new ApiError(
        404,
        "keyword_not_found",
        `No keyword with event ${body.event_type}/${body.event_id}.`,
      );
    }
    return keyword;
  }
  if (body.shortcode_string === undefined || body.keyword_string === undefined) {
    const missing = body.shortcode_string === undefined ? "shortcode_string" : "keyword_string";
    throw bad(missing, "Send shortcode_string and keyword_string, or event_id and event_type.");
  }
  const keyword = ledger.keywordByTarget(account.id, body.shortcode_string, body.keyword_string);
  if (!keyword) {
    throw new ApiError(
      404,
      "keyword_not_found",
      `No keyword ${body.keyword_string} on shortcode ${body.shortcode_string}.`,
    );
  }
  return keyword;
}

interface Attribution {
  peerFundraiserId: string | null;
  peerFundraiserTeamId: string | null;
  hiddenCaptainFor: Team | null;
}

/** Rules 1 to 6 of 4.3. */
export function attribute(
  ledger: Ledger,
  account: Account,
  keyword: Keyword,
  fundraiserSent: string | number | undefined,
  teamSent: string | number | undefined,
): Attribution {
  // Rule 6: a keyword without peer fundraising ignores both parameters.
  if (!keyword.peer) return { peerFundraiserId: null, peerFundraiserTeamId: null, hiddenCaptainFor: null };
  const target = `${keyword.keyword}@${keyword.shortcode}`;

  // Rule 5: unknown, or of another keyword or account → 400 (one message for all three, so
  // another account's ids are not revealed).
  let fundraiser = null;
  if (fundraiserSent !== undefined) {
    const found = ledger.fundraiser(String(fundraiserSent));
    if (!found || found.accountId !== account.id || found.keywordId !== keyword.id) {
      throw bad(
        "peer_fundraiser_id",
        `No fundraiser ${String(fundraiserSent)} on ${target}.`,
        "invalid_peer",
      );
    }
    fundraiser = found;
  }
  let team = null;
  if (teamSent !== undefined) {
    const found = ledger.team(String(teamSent));
    if (!found || found.accountId !== account.id || found.keywordId !== keyword.id) {
      throw bad("peer_fundraiser_team_id", `No team ${String(teamSent)} on ${target}.`, "invalid_peer");
    }
    team = found;
  }

  // Rules 2 and 4: the fundraiser wins; its own team (if any) is credited.
  if (fundraiser) {
    return {
      peerFundraiserId: fundraiser.id,
      peerFundraiserTeamId: fundraiser.teamId,
      hiddenCaptainFor: null,
    };
  }
  // Rule 3: the team's captain, or a hidden captain made for a team without one.
  if (team) {
    return team.captainId !== null
      ? { peerFundraiserId: team.captainId, peerFundraiserTeamId: team.id, hiddenCaptainFor: null }
      : { peerFundraiserId: hiddenCaptainId(team.id), peerFundraiserTeamId: team.id, hiddenCaptainFor: team };
  }
  // Rule 1: the keyword's root fundraiser, the "NPO Page".
  return {
    peerFundraiserId: rootFundraiserId(keyword.id),
    peerFundraiserTeamId: null,
    hiddenCaptainFor: null,
  };
}

/** full_name overrides first_name/last_name: the last word is the last name, the rest the first. */
export function donorName(body: UpstreamDonationRequest): {
  firstName: string | null;
  lastName: string | null;
} {
  const full = body.full_name?.trim().replace(/\s+/g, " ");
  if (full) {
    const space = full.lastIndexOf(" ");
    return space === -1
      ? { firstName: full, lastName: null }
      : { firstName: full.slice(0, space), lastName: full.slice(space + 1) };
  }
  return { firstName: body.first_name?.trim() || null, lastName: body.last_name?.trim() || null };
}

function resolveCard(
  ledger: Ledger,
  account: Account,
  body: UpstreamDonationRequest,
  now: Date,
): CheckedCard {
  const cardFields = (["card_number", "cvv", "expiration_date"] as const).filter(
    (name) => body[name] !== undefined,
  );
  if (body.credit_card_token !== undefined) {
    if (cardFields.length > 0) {
      throw bad(cardFields[0]!, "Send either credit_card_token or the card's details, not both.");
    }
    const token = ledger.paymentToken(body.credit_card_token, account.id);
    if (!token) {
      throw bad("credit_card_token", "The credit_card_token is not known for this account.", "invalid_card");
    }
    return { brand: token.brand, last4: token.last4, outcome: token.outcome };
  }
  if (cardFields.length === 0) {
    throw bad(
      "credit_card_token",
      "Send credit_card_token, or card_number, cvv and expiration_date.",
      "card_required",
    );
  }
  const missing = (["card_number", "cvv", "expiration_date"] as const).filter(
    (name) => body[name] === undefined,
  );
  if (missing.length > 0) {
    throw new ApiError(
      400,
      "validation_failed",
      `${missing.join(", ")}: required with card_number, cvv and expiration_date.`,
      Object.fromEntries(
        missing.map((name) => [name, ["Required with card_number, cvv and expiration_date."]]),
      ),
    );
  }
  return checkCard(
    { card_number: body.card_number!, cvv: body.cvv!, expiration_date: body.expiration_date! },
    now,
  );
}

/**
 * Validates a donate body for an account and works out everything that will be recorded.
 * Throws ApiError (4xx) for any refusal; writes nothing.
 */
export function planDonation(ledger: Ledger, account: Account, raw: unknown, now: Date): DonationPlan {
  if (raw === undefined) throw new ApiError(400, "validation_failed", "The request needs a JSON body.");
  const body = validate(UpstreamDonationRequestSchema, raw);

  const amountCents = toCents(body.amount);
  if (amountCents <= 0) throw bad("amount", "The amount must be greater than 0.");
  let frequency: string | null = null;
  if (body.recurring_frequency !== undefined) {
    frequency = body.recurring_frequency.toLowerCase();
    if (!(RECURRING_FREQUENCIES as readonly string[]).includes(frequency)) {
      throw bad("recurring_frequency", `One of ${RECURRING_FREQUENCIES.join(", ")}.`);
    }
  }
  if (body.pledge_wall !== undefined && body.pledge_wall !== "true" && body.pledge_wall !== "false") {
    throw bad("pledge_wall", 'pledge_wall is "true" or "false".');
  }
  if (body.source !== undefined && !UPSTREAM_ID_PATTERN.test(body.source)) {
    throw bad("source", "The source is 1 to 64 letters, digits, '_', '.' or '-'.");
  }

  const keyword = resolveTarget(ledger, account, body);
  const forms = ledger.forms(keyword.id);
  const form =
    body.form_id === undefined
      ? (forms.find((candidate) => candidate.isDefault) ?? forms[0])
      : forms.find((candidate) => candidate.id === body.form_id);
  if (!form) {
    throw bad(
      "form_id",
      `No form ${body.form_id ?? ""} on ${keyword.keyword}@${keyword.shortcode}.`,
      "form_not_found",
    );
  }
  const attribution = attribute(
    ledger,
    account,
    keyword,
    body.peer_fundraiser_id,
    body.peer_fundraiser_team_id,
  );
  const card = resolveCard(ledger, account, body, now);
  const fee = body.fee_rate === undefined ? 0 : feeCents(amountCents, body.fee_rate);

  return {
    accountId: account.id,
    keyword,
    formId: form.id,
    transactionType: frequency === null ? "donation" : "recurring_donation",
    recurringFrequency: frequency,
    amountCents,
    donationCents: amountCents,
    feeCents: fee,
    feeRate: body.fee_rate === undefined ? null : String(body.fee_rate),
    ...attribution,
    source: body.source === undefined ? "api" : `api_via_${body.source}`,
    brand: card.brand,
    last4: card.last4,
    outcome: card.outcome,
    anonymous: body.anonymous ?? false,
    ...donorName(body),
    email: body.email ?? null,
    phone: body.phone ?? null,
    address: Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, body[field] ?? null])) as DonorAddress,
    memo: body.memo ?? null,
    smsOptInAccepted: body.sms_opt_in_accepted ?? false,
    pledgeWall: body.pledge_wall === "true",
  };
}
