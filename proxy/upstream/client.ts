/**
 * The upstream API v2 client: session handling, and each call's outcome in terms the
 * routes can act on. Responses are parsed leniently (contract/upstream.ts): unknown fields
 * pass, missing optional ones are fine. A call that fails throws one of the upstream's own errors
 * (errors.ts), whose text is givekit's, never the upstream's; a donate never throws for a reason
 * the upstream gave: its outcome says what happened (DonateOutcome).
 */
import { setMaxListeners } from "node:events";
import {
  LoginResponseSchema,
  ReportEnvelopeSchema,
  UpstreamFundraiserSchema,
  UpstreamTeamSchema,
  TransactionRowSchema,
  UpstreamDonationResponseSchema,
  UpstreamErrorSchema,
  UpstreamFundraisersEnvelopeSchema,
  UpstreamPaymentTokenResponseSchema,
  UpstreamSubscriptionResponseSchema,
  UpstreamTeamsEnvelopeSchema,
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
import { UpstreamAnswerError, UpstreamAuthError, UpstreamError, UpstreamUnreachableError } from "./errors";
import {
  callUpstream,
  callUpstreamRows,
  createAgents,
  UpstreamTransportError,
  type RowsOptions,
  type RowsShape,
  type RowsSink,
  type UpstreamAnswer,
} from "./http";
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

/** What a streamed list or report handed over: rows checked and passed on, rows left out. */
export interface StreamedCount {
  rows: number;
  /** Rows of a shape givekit does not know: left out, never guessed at. */
  skipped: number;
}

export interface StreamOptions {
  /** The whole call's time limit (the report's polls included); default UPSTREAM_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** What became of a donate, each with what its attempt needs; donate() resolves with one of these. */
export type DonateOutcome =
  /**
   * Nothing reached the upstream: no connection, or no session (its login failed or was refused),
   * so the donate was never written. `error`: why, as the donor is answered (problem.ts).
   */
  | { kind: "not_sent"; error: UpstreamError }
  /** Charged: status Success. */
  | { kind: "succeeded"; httpStatus: number; message: string; transactionId: string | null }
  /** The card was declined: status Error. */
  | { kind: "declined"; httpStatus: number }
  /** The payment failed: status Fatal. */
  | { kind: "fatal"; httpStatus: number }
  /** A 4xx: the upstream refused the request, so nothing was charged. `fields`: what it named, if anything. */
  | { kind: "rejected"; httpStatus: number; fields: string[] }
  /** Sent, and no usable answer: the card may or may not have been charged. */
  | { kind: "unknown"; httpStatus: number | null; reason: string };

/** Each status the upstream answers a donate with, as an outcome. */
const ANSWERED: Record<DonationStatus, "succeeded" | "declined" | "fatal"> = {
  Success: "succeeded",
  Error: "declined",
  Fatal: "fatal",
};

export type PaymentTokenOutcome =
  | { kind: "created"; token: string; brand: string | null; last4: string | null }
  | { kind: "refused"; httpStatus: number };

export type SubscribeOutcome = { kind: "subscribed" } | { kind: "rejected"; httpStatus: number };

export interface UpstreamClient {
  /** Logs in with the private token now, whatever the session's state (`givekit doctor`). */
  login(): Promise<void>;
  createPaymentToken(card: UpstreamPaymentTokenRequest): Promise<PaymentTokenOutcome>;
  /**
   * Never retried after it may have reached the upstream: donate has no idempotency of its own.
   * Resolves with what became of it, never rejects for anything the upstream or the network did.
   */
  donate(donation: UpstreamDonationRequest): Promise<DonateOutcome>;
  subscribe(subscription: UpstreamSubscriptionRequest): Promise<SubscribeOutcome>;
  /** The keyword's fundraisers, all in one array: for small lists; eachFundraiser for any size. */
  fundraisers(shortcode: string, keyword: string): Promise<UpstreamFundraiser[]>;
  teams(shortcode: string, keyword: string): Promise<UpstreamTeam[]>;
  /**
   * The keyword's fundraisers one at a time as the list arrives (checked one by one; a row of
   * another shape is skipped and counted), in memory one row at a time. Throws a problem when the
   * list fails (errors.ts); rows already handed over were real rows, but the list is then incomplete.
   */
  eachFundraiser(
    shortcode: string,
    keyword: string,
    onRow: (fundraiser: UpstreamFundraiser) => void,
    options?: StreamOptions,
  ): Promise<StreamedCount>;
  eachTeam(
    shortcode: string,
    keyword: string,
    onRow: (team: UpstreamTeam) => void,
    options?: StreamOptions,
  ): Promise<StreamedCount>;
  /**
   * The account's transactions matching a filter: the asynchronous report, asked for and then
   * polled until ready, within UPSTREAM_TIMEOUT_MS in all. Throws a problem when it fails.
   * All rows in one array: for narrow filters; eachTransaction for any size.
   */
  transactions(filter: ReportRequest): Promise<TransactionsReport>;
  /**
   * The same report streamed: each row checked and handed over as it arrives, never the whole
   * report in memory. Throws a problem when it fails (the rows handed over are then incomplete).
   */
  eachTransaction(
    filter: ReportRequest,
    onRow: (row: TransactionRow) => void,
    options?: StreamOptions,
  ): Promise<StreamedCount>;
  /**
   * The same report's bytes read by a sink made for each answer (a thread of its own:
   * proxy/campaign/progress-reader.ts) instead of row by row here; resolves with the sink that
   * read the rows. Throws a problem when the report fails.
   */
  readTransactions<Sink extends RowsSink>(
    filter: ReportRequest,
    sink: (shape: RowsShape) => Sink,
    options?: StreamOptions,
  ): Promise<Sink>;
  close(): void;
}

/** Where a transactions report's rows are in its answer. */
const REPORT_ROWS = ["report", "transactions"] as const;

const JSON_HEADERS = { Accept: "application/json", "Content-Type": "application/json" };

/**
 * @example
 * const upstream = createUpstreamClient(config.upstream);
 * const outcome = await upstream.donate({ shortcode_string: "71777", keyword_string: "HOPE", amount: "25.00", credit_card_token: "…" });
 */
export function createUpstreamClient(config: UpstreamConfig): UpstreamClient {
  const agents = createAgents();
  /** Aborted by close(): calls still in flight end, and no new one starts. */
  const stopped = new AbortController();
  // Every call in flight listens to it: as many as the proxy has calls, not a leak.
  setMaxListeners(0, stopped.signal);
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
      stop: stopped.signal,
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
      throw transportError(error);
    }
    const parsed = answer.status < 300 ? LoginResponseSchema.safeParse(answer.body) : null;
    if (!parsed?.success) {
      throw new UpstreamAuthError(`Login was refused (HTTP ${answer.status}).`, answer.status);
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
      throw new UpstreamAuthError("The session was refused right after login.", 401);
    }
    return second;
  }

  async function sessionCall(method: "GET" | "POST", target: URL, body?: unknown) {
    try {
      return await withSession((authorization) => safeCall(method, target, authorization, body));
    } catch (error) {
      throw transportError(error);
    }
  }

  /**
   * A streamed GET: retried once on a stale kept-alive socket only if no row was handed over yet
   * (a row handed over twice would be counted twice). A sink's answer may be retried whatever it
   * read: the retry reads into a sink of its own, the first one dropped.
   */
  async function rowsCall(
    target: URL,
    authorization: string,
    body: unknown,
    rows: RowsOptions,
    timeoutMs: number,
  ) {
    let delivered = 0;
    const counted: RowsOptions =
      "onRow" in rows
        ? {
            ...rows,
            onRow(row) {
              delivered++;
              rows.onRow(row);
            },
          }
        : rows;
    const options = {
      method: "GET" as const,
      url: target,
      headers: { ...JSON_HEADERS, Authorization: authorization },
      body: body === undefined ? undefined : JSON.stringify(body),
      connectTimeoutMs: config.connectTimeoutMs,
      timeoutMs,
      agent: keepAlive,
      stop: stopped.signal,
      rows: counted,
    };
    try {
      return await callUpstreamRows(options);
    } catch (error) {
      if (
        error instanceof UpstreamTransportError &&
        error.reusedSocket &&
        error.reason !== "timeout" &&
        delivered === 0
      ) {
        return callUpstreamRows(options);
      }
      throw error;
    }
  }

  /**
   * A keyword's list (fundraisers or teams, as `list` says where and how to read it) streamed row
   * by row, each checked on its own.
   */
  async function eachListed<Row>(
    list: PeerList<Row>,
    shortcode: string,
    keyword: string,
    onRow: (row: Row) => void,
    options?: StreamOptions,
  ): Promise<StreamedCount> {
    const { what, path, key, check, envelope } = list;
    const query = { shortcode, keyword };
    const timeoutMs = options?.timeoutMs ?? config.timeoutMs;
    let count = 0;
    let skipped = 0;
    const rows: RowsOptions = {
      path: [key],
      onRow(raw) {
        const parsed = check(raw);
        if (!parsed.success) {
          skipped++;
          return;
        }
        count++;
        onRow(parsed.data);
      },
    };
    let answer: UpstreamAnswer;
    try {
      answer = await withSession((authorization) =>
        rowsCall(url(path, query), authorization, undefined, rows, timeoutMs),
      );
    } catch (error) {
      throw transportError(error);
    }
    if (answer.status >= 300 || !envelope(answer.body)) {
      throw new UpstreamAnswerError(`Listing ${what} failed (HTTP ${answer.status}).`, answer.status);
    }
    return { rows: count, skipped };
  }

  /** The same list, all in one array. */
  async function allListed<Row>(list: PeerList<Row>, shortcode: string, keyword: string): Promise<Row[]> {
    const all: Row[] = [];
    await eachListed(list, shortcode, keyword, (row) => all.push(row));
    return all;
  }

  /**
   * The transactions report: asked for, then polled until ready, its rows read as `rows` says;
   * within the call's time limit in all.
   */
  async function report(filter: ReportRequest, rows: RowsOptions, options?: StreamOptions): Promise<void> {
    // Reports take an API token with no type in the header (docs/upstream-interface.md, "Authorization").
    const authorization = formatAuthorization(config.privateToken);
    const deadline = Date.now() + (options?.timeoutMs ?? config.timeoutMs);
    const ask = async (path: string, body: unknown) => {
      let answer: UpstreamAnswer;
      try {
        answer = await rowsCall(url(path), authorization, body, rows, Math.max(1, deadline - Date.now()));
      } catch (error) {
        throw transportError(error);
      }
      const parsed = answer.status < 300 ? ReportEnvelopeSchema.safeParse(answer.body) : null;
      if (!parsed?.success) {
        throw new UpstreamAnswerError(
          `The transactions report failed (HTTP ${answer.status}).`,
          answer.status,
        );
      }
      return parsed.data.report;
    };
    let answer = await ask(UPSTREAM_PATHS.transactionsReport, filter);
    let wait: number = REPORT_POLL_MS.first;
    while (!Array.isArray(answer.transactions)) {
      if (Date.now() + wait > deadline) {
        throw new UpstreamAnswerError("The transactions report was not ready in time.");
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, REPORT_POLL_MS.last);
      answer = await ask(UPSTREAM_PATHS.reportResults, { id: answer.id });
    }
  }

  async function eachTransaction(
    filter: ReportRequest,
    onRow: (row: TransactionRow) => void,
    options?: StreamOptions,
  ): Promise<StreamedCount> {
    let count = 0;
    let skipped = 0;
    await report(
      filter,
      {
        path: REPORT_ROWS,
        onRow(raw) {
          const parsed = TransactionRowSchema.safeParse(raw);
          if (!parsed.success) {
            skipped++;
            return;
          }
          count++;
          onRow(parsed.data);
        },
      },
      options,
    );
    return { rows: count, skipped };
  }

  async function readTransactions<Sink extends RowsSink>(
    filter: ReportRequest,
    sink: (shape: RowsShape) => Sink,
    options?: StreamOptions,
  ): Promise<Sink> {
    // A report not ready yet is answered without its rows: the last answer read is the one with them.
    let last: Sink | undefined;
    await report(filter, { path: REPORT_ROWS, sink: (shape) => (last = sink(shape)) }, options);
    if (!last) throw new UpstreamAnswerError("The transactions report had no rows' array.");
    return last;
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
        throw new UpstreamAnswerError(`Tokenizing the card failed (HTTP ${answer.status}).`, answer.status);
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
      // The donate's own failure, told apart from its session's (a failed login sent no donate).
      let sending: UpstreamTransportError | undefined;
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
            stop: stopped.signal,
          }).catch((error: unknown) => {
            if (error instanceof UpstreamTransportError) sending = error;
            throw error;
          }),
        );
      } catch (error) {
        if (sending && error === sending) {
          return sending.kind === "not_sent"
            ? { kind: "not_sent", error: new UpstreamUnreachableError(sending.reason) }
            : { kind: "unknown", httpStatus: null, reason: sending.reason };
        }
        // The session could not be had: the donate was never written.
        const failure = transportError(error);
        if (failure instanceof UpstreamError) return { kind: "not_sent", error: failure };
        throw failure;
      }
      // A 4xx refused the request (nothing charged), whatever its body says; 402 is a decline.
      const refused = answer.status >= 400 && answer.status < 500 && answer.status !== 402;
      const parsed = refused ? null : UpstreamDonationResponseSchema.safeParse(answer.body);
      if (parsed?.success) {
        const { status, message, transaction_id } = parsed.data.donation;
        const kind = ANSWERED[status];
        if (kind !== "succeeded") return { kind, httpStatus: answer.status };
        return {
          kind,
          httpStatus: answer.status,
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
        throw transportError(error);
      }
      if (answer.status === 401 || answer.status === 403) {
        throw new UpstreamAuthError("The public token was refused.", answer.status);
      }
      const parsed = UpstreamSubscriptionResponseSchema.safeParse(answer.body);
      const status = parsed.success ? parsed.data.subscription.status : answer.status;
      if (answer.status < 300 && status >= 200 && status < 300) return { kind: "subscribed" };
      if (answer.status < 500 && status >= 400 && status < 500)
        return { kind: "rejected", httpStatus: status };
      throw new UpstreamAnswerError(`Subscribing failed (HTTP ${answer.status}).`, answer.status);
    },

    fundraisers: (shortcode, keyword) => allListed(FUNDRAISERS, shortcode, keyword),
    teams: (shortcode, keyword) => allListed(TEAMS, shortcode, keyword),
    eachFundraiser: (shortcode, keyword, onRow, options) =>
      eachListed(FUNDRAISERS, shortcode, keyword, onRow, options),
    eachTeam: (shortcode, keyword, onRow, options) => eachListed(TEAMS, shortcode, keyword, onRow, options),

    async transactions(filter) {
      const rows: TransactionRow[] = [];
      const { skipped } = await eachTransaction(filter, (row) => rows.push(row));
      return { rows, skipped };
    },

    eachTransaction,
    readTransactions,

    close() {
      stopped.abort();
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** Where a keyword's peer list is asked for, the key its rows sit under, how a row and the whole answer are checked. */
interface PeerList<Row> {
  what: string;
  path: string;
  key: string;
  check: (row: unknown) => { success: true; data: Row } | { success: false };
  envelope: (body: unknown) => boolean;
}

const FUNDRAISERS: PeerList<UpstreamFundraiser> = {
  what: "fundraisers",
  path: UPSTREAM_PATHS.fundraisers,
  key: "fundraisers",
  check: (row) => UpstreamFundraiserSchema.safeParse(row),
  envelope: (body) => UpstreamFundraisersEnvelopeSchema.safeParse(body).success,
};

const TEAMS: PeerList<UpstreamTeam> = {
  what: "teams",
  path: UPSTREAM_PATHS.teams,
  key: "peer_fundraising_teams",
  check: (row) => UpstreamTeamSchema.safeParse(row),
  envelope: (body) => UpstreamTeamsEnvelopeSchema.safeParse(body).success,
};

/** The field names an error body points at (only the names: upstream text is never passed on). */
function errorFields(body: unknown): string[] {
  const parsed = UpstreamErrorSchema.safeParse(body);
  return parsed.success ? Object.keys(parsed.data.error.fields ?? {}) : [];
}

/** A transport failure as one of the upstream's errors: "unreachable" only when nothing was sent. */
function transportError(error: unknown): unknown {
  if (!(error instanceof UpstreamTransportError)) return error;
  return error.kind === "not_sent"
    ? new UpstreamUnreachableError(error.reason)
    : /^(response too large|malformed answer)/.test(error.reason)
      ? // givekit's own words for what was wrong, never the upstream's text.
        new UpstreamAnswerError(
          `The fundraising service's answer could not be read (${error.reason.split(":")[0]}).`,
        )
      : new UpstreamAnswerError("The fundraising service did not answer in time.");
}
