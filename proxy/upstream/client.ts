/**
 * The upstream API v2 client: session handling, and each call's outcome in terms the
 * routes can act on. Responses are parsed leniently (contract/upstream.ts): unknown fields
 * pass, missing optional ones are fine. Upstream text never leaves this module in an error.
 */
import {
  LoginResponseSchema,
  ReportEnvelopeSchema,
  TransactionRowSchema,
  UpstreamDonationResponseSchema,
  UpstreamErrorSchema,
  UpstreamFundraisersResponseSchema,
  UpstreamPaymentTokenResponseSchema,
  UpstreamSubscriptionResponseSchema,
  UpstreamTeamsResponseSchema,
  formatAuthorization,
  type DonationStatus,
  type ReportRequest,
  type TransactionRow,
  type UpstreamDonationRequest,
  type UpstreamFundraiser,
  type UpstreamPaymentTokenRequest,
  type UpstreamSubscriptionRequest,
  type UpstreamTeam,
} from "../../contract/upstream";
import type { UpstreamConfig } from "../config";
import { ProblemError } from "../problem";
import { callUpstream, createAgents, UpstreamTransportError, type UpstreamAnswer } from "./http";
import { createSessionManager } from "./session";

export const UPSTREAM_PATHS = {
  login: "/api/v2/users/login_with_auth_token",
  paymentToken: "/api/v2/donations/create_payment_token",
  donate: "/api/v2/donations/donate",
  subscribe: "/api/v2/subscriptions/subscribe.json",
  fundraisers: "/api/v2/fundraisers",
  teams: "/api/v2/teams",
  transactionsReport: "/api/v2/reports/transactions.json",
  reportResults: "/api/v2/reports/results.json",
} as const;

/** The first wait before asking again for a report that is not ready; it doubles up to the last. */
export const REPORT_POLL_MS = { first: 100, last: 2_000 } as const;

export interface TransactionsReport {
  rows: TransactionRow[];
  /** Rows of a shape givekit does not know: left out, never guessed at. */
  skipped: number;
}

export type DonateOutcome =
  /** The upstream said what happened. */
  | {
      kind: "answered";
      httpStatus: number;
      status: DonationStatus;
      message: string;
      transactionId: string | null;
    }
  /** A 4xx: the upstream refused the request, so nothing was charged. `fields`: what it named, if anything. */
  | { kind: "rejected"; httpStatus: number; fields: string[] }
  /** Sent, and no usable answer: the card may or may not have been charged. */
  | { kind: "unknown"; httpStatus: number | null; reason: string };

export type PaymentTokenOutcome =
  | { kind: "created"; token: string; brand: string | null; last4: string | null }
  | { kind: "refused"; httpStatus: number };

export type SubscribeOutcome = { kind: "subscribed" } | { kind: "rejected"; httpStatus: number };

export interface UpstreamClient {
  /** Logs in with the private token now, whatever the session's state (`givekit doctor`). */
  login(): Promise<void>;
  createPaymentToken(card: UpstreamPaymentTokenRequest): Promise<PaymentTokenOutcome>;
  /** Never retried after it may have reached the upstream: donate has no idempotency of its own. */
  donate(donation: UpstreamDonationRequest): Promise<DonateOutcome>;
  subscribe(subscription: UpstreamSubscriptionRequest): Promise<SubscribeOutcome>;
  fundraisers(shortcode: string, keyword: string): Promise<UpstreamFundraiser[]>;
  teams(shortcode: string, keyword: string): Promise<UpstreamTeam[]>;
  /**
   * The account's transactions matching a filter: the asynchronous report, asked for and then
   * polled until ready, within UPSTREAM_TIMEOUT_MS in all. Throws a problem when it fails.
   */
  transactions(filter: ReportRequest): Promise<TransactionsReport>;
  close(): void;
}

const JSON_HEADERS = { Accept: "application/json", "Content-Type": "application/json" };

/**
 * @example
 * const upstream = createUpstreamClient(config.upstream);
 * const outcome = await upstream.donate({ shortcode_string: "71777", keyword_string: "HOPE", amount: "25.00", credit_card_token: "…" });
 */
export function createUpstreamClient(config: UpstreamConfig): UpstreamClient {
  const agents = createAgents();
  const base = config.baseUrl;
  const keepAlive = base.startsWith("https:") ? agents.https : agents.http;

  const fixedUrls = new Map<string, URL>();
  function url(path: string, query?: Record<string, string>): URL {
    if (!query) {
      let fixed = fixedUrls.get(path);
      if (!fixed) fixedUrls.set(path, (fixed = new URL(base + path)));
      return fixed;
    }
    const target = new URL(base + path);
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
    return target;
  }

  /** A call that is harmless to repeat: retried once if a kept-alive socket turned out stale. */
  async function safeCall(method: "GET" | "POST", target: URL, authorization: string, body?: unknown) {
    const options = {
      method,
      url: target,
      headers: { ...JSON_HEADERS, Authorization: authorization },
      body: body === undefined ? undefined : JSON.stringify(body),
      connectTimeoutMs: config.connectTimeoutMs,
      timeoutMs: config.timeoutMs,
      agent: keepAlive,
    };
    try {
      return await callUpstream(options);
    } catch (error) {
      if (error instanceof UpstreamTransportError && error.reusedSocket && error.reason !== "timeout") {
        return callUpstream(options);
      }
      throw error;
    }
  }

  async function login(): Promise<string> {
    let answer: UpstreamAnswer;
    try {
      answer = await safeCall(
        "POST",
        url(UPSTREAM_PATHS.login),
        formatAuthorization(config.privateToken, "private"),
        {},
      );
    } catch (error) {
      throw transportProblem(error);
    }
    const parsed = answer.status < 300 ? LoginResponseSchema.safeParse(answer.body) : null;
    if (!parsed?.success) {
      throw new ProblemError("upstream_auth_failed", `Login was refused (HTTP ${answer.status}).`);
    }
    return parsed.data.user.session_token;
  }

  const session = createSessionManager(login);

  /** Runs a session call; on 401 logs in again once and repeats the call once (a 401 did nothing). */
  async function withSession(send: (authorization: string) => Promise<UpstreamAnswer>) {
    const token = await session.get();
    const first = await send(formatAuthorization(token, "session"));
    if (first.status !== 401) return first;
    const renewed = await session.renew(token);
    const second = await send(formatAuthorization(renewed, "session"));
    if (second.status === 401) {
      throw new ProblemError("upstream_auth_failed", "The session was refused right after login.");
    }
    return second;
  }

  async function sessionCall(method: "GET" | "POST", target: URL, body?: unknown) {
    try {
      return await withSession((authorization) => safeCall(method, target, authorization, body));
    } catch (error) {
      throw transportProblem(error);
    }
  }

  return {
    async login() {
      await login();
    },

    async createPaymentToken(card) {
      const answer = await sessionCall("POST", url(UPSTREAM_PATHS.paymentToken), card);
      if (answer.status >= 400 && answer.status < 500) return { kind: "refused", httpStatus: answer.status };
      const parsed = answer.status < 300 ? UpstreamPaymentTokenResponseSchema.safeParse(answer.body) : null;
      if (!parsed?.success) {
        throw new ProblemError("upstream_error", `Tokenizing the card failed (HTTP ${answer.status}).`);
      }
      return {
        kind: "created",
        token: parsed.data.credit_card_token,
        brand: parsed.data.brand ?? null,
        last4: parsed.data.last_4 ?? null,
      };
    },

    async donate(donation) {
      const body = JSON.stringify(donation);
      let answer: UpstreamAnswer;
      try {
        answer = await withSession((authorization) =>
          callUpstream({
            method: "POST",
            url: url(UPSTREAM_PATHS.donate),
            headers: { ...JSON_HEADERS, Authorization: authorization },
            body,
            connectTimeoutMs: config.connectTimeoutMs,
            timeoutMs: config.timeoutMs,
            // A fresh connection: a refused or timed-out connect then proves nothing was sent.
            agent: false,
          }),
        );
      } catch (error) {
        if (error instanceof UpstreamTransportError && error.kind === "unknown") {
          return { kind: "unknown", httpStatus: null, reason: error.reason };
        }
        throw transportProblem(error);
      }
      // A 4xx refused the request (nothing charged), whatever its body says; 402 is a decline.
      const refused = answer.status >= 400 && answer.status < 500 && answer.status !== 402;
      const parsed = refused ? null : UpstreamDonationResponseSchema.safeParse(answer.body);
      if (parsed?.success) {
        const { status, message, transaction_id } = parsed.data.donation;
        return {
          kind: "answered",
          httpStatus: answer.status,
          status,
          message: message ?? "",
          transactionId: transaction_id === undefined ? null : String(transaction_id),
        };
      }
      if (answer.status >= 400 && answer.status < 500) {
        return { kind: "rejected", httpStatus: answer.status, fields: errorFields(answer.body) };
      }
      return {
        kind: "unknown",
        httpStatus: answer.status,
        reason: `HTTP ${answer.status} without a donation`,
      };
    },

    async subscribe(subscription) {
      let answer: UpstreamAnswer;
      try {
        answer = await safeCall(
          "POST",
          url(UPSTREAM_PATHS.subscribe),
          formatAuthorization(config.publicToken, "public"),
          subscription,
        );
      } catch (error) {
        throw transportProblem(error);
      }
      if (answer.status === 401 || answer.status === 403) {
        throw new ProblemError("upstream_auth_failed", "The public token was refused.");
      }
      const parsed = UpstreamSubscriptionResponseSchema.safeParse(answer.body);
      const status = parsed.success ? parsed.data.subscription.status : answer.status;
      if (answer.status < 300 && status >= 200 && status < 300) return { kind: "subscribed" };
      if (answer.status < 500 && status >= 400 && status < 500)
        return { kind: "rejected", httpStatus: status };
      throw new ProblemError("upstream_error", `Subscribing failed (HTTP ${answer.status}).`);
    },

    async fundraisers(shortcode, keyword) {
      const answer = await sessionCall("GET", url(UPSTREAM_PATHS.fundraisers, { shortcode, keyword }));
      const parsed = answer.status < 300 ? UpstreamFundraisersResponseSchema.safeParse(answer.body) : null;
      if (!parsed?.success) {
        throw new ProblemError("upstream_error", `Listing fundraisers failed (HTTP ${answer.status}).`);
      }
      return parsed.data.fundraisers;
    },

    async teams(shortcode, keyword) {
      const answer = await sessionCall("GET", url(UPSTREAM_PATHS.teams, { shortcode, keyword }));
      const parsed = answer.status < 300 ? UpstreamTeamsResponseSchema.safeParse(answer.body) : null;
      if (!parsed?.success) {
        throw new ProblemError("upstream_error", `Listing teams failed (HTTP ${answer.status}).`);
      }
      return parsed.data.peer_fundraising_teams;
    },

    async transactions(filter) {
      // Reports take an API token with no type in the header (docs/upstream-interface.md, "Authorization").
      const authorization = formatAuthorization(config.privateToken);
      const deadline = Date.now() + config.timeoutMs;
      const ask = async (path: string, body: unknown) => {
        let answer: UpstreamAnswer;
        try {
          answer = await safeCall("GET", url(path), authorization, body);
        } catch (error) {
          throw transportProblem(error);
        }
        const parsed = answer.status < 300 ? ReportEnvelopeSchema.safeParse(answer.body) : null;
        if (!parsed?.success) {
          throw new ProblemError("upstream_error", `The transactions report failed (HTTP ${answer.status}).`);
        }
        return parsed.data.report;
      };
      let report = await ask(UPSTREAM_PATHS.transactionsReport, filter);
      let wait: number = REPORT_POLL_MS.first;
      while (!Array.isArray(report.transactions)) {
        if (Date.now() + wait > deadline) {
          throw new ProblemError("upstream_error", "The transactions report was not ready in time.");
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, REPORT_POLL_MS.last);
        report = await ask(UPSTREAM_PATHS.reportResults, { id: report.id });
      }
      const rows: TransactionRow[] = [];
      let skipped = 0;
      for (const row of report.transactions) {
        const parsed = TransactionRowSchema.safeParse(row);
        if (parsed.success) rows.push(parsed.data);
        else skipped++;
      }
      return { rows, skipped };
    },

    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** The field names an error body points at (only the names: upstream text is never passed on). */
function errorFields(body: unknown): string[] {
  const parsed = UpstreamErrorSchema.safeParse(body);
  return parsed.success ? Object.keys(parsed.data.error.fields ?? {}) : [];
}

/** A transport failure as the donor should hear it: "try again" only when nothing was sent. */
function transportProblem(error: unknown): unknown {
  if (!(error instanceof UpstreamTransportError)) return error;
  return error.kind === "not_sent"
    ? new ProblemError("upstream_unavailable", "The fundraising service cannot be reached. Nothing was sent.")
    : new ProblemError("upstream_error", "The fundraising service did not answer in time.");
}
