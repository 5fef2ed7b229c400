/**
 * Test support for the proxy's integration tests: the sandbox and the proxy over real HTTP,
 * a client that remembers every answer, and the scan for secrets.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { openSqlite } from "../../sqlite/open";
import { afterAll, afterEach, beforeEach, expect } from "vitest";
import { DB_FILE } from "../../proxy/store/sqlite/data-dir";
import type { AttemptRecord, ConsentRecord } from "../../proxy/store/types";
import { sql } from "../helpers/postgres";
import { startProxy, type ProxyHandle, type StartProxyOptions } from "../helpers/proxy";
import { DEMO, startSandbox, type SandboxHandle, type StartSandboxOptions } from "../helpers/sandbox";
import { FUTURE_EXPIRY } from "../helpers/cards";

export const CARDS = {
  ok: "4242424242424242",
  declined: "4000000000000002",
  fatal: "4000000000000119",
} as const;
/** Distinctive enough to be found if it ever leaked into an answer or a log line. */
/** The upstream donate path, for counting the calls that reached it. */
export const DONATE_PATH = "/api/v2/donations/donate";
export const CVV = "317";
export const EXPIRY = FUTURE_EXPIRY;

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // oxlint-disable-next-line typescript/no-explicit-any -- answers are read field by field in assertions
  json: any;
}

export interface PostOptions {
  headers?: Record<string, string>;
  /** Sent as is instead of JSON.stringify(body). */
  raw?: string;
}

/** Everything the clients of a test file received (bodies and header values), for the secrets scan. */
export const received: string[] = [];

/** A fetch client for the proxy that keeps every answer in `received`. */
export function client(baseUrl: string) {
  async function send(path: string, init: RequestInit): Promise<Reply> {
    const res = await fetch(baseUrl + path, init);
    const text = await res.text();
    received.push(text, ...res.headers.values());
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }
  return {
    get: (path: string, headers: Record<string, string> = {}) => send(path, { headers }),
    post: (path: string, body: unknown, options: PostOptions = {}) =>
      send(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...options.headers },
        body: options.raw ?? JSON.stringify(body),
      }),
  };
}
export type Client = ReturnType<typeof client>;

/** A form session, as the card frame asks for one when it opens. */
export async function formSession(api: Client, headers: Record<string, string> = {}): Promise<string> {
  const reply = await api.post("/v1/form-sessions", {}, { headers });
  if (reply.status !== 201) throw new Error(`no form session: ${reply.status} ${reply.text}`);
  return reply.json.form_session as string;
}

/**
 * POST /v1/payment-tokens as the card frame sends it: with a form session asked for just before
 * (from the same address), unless the body names its own `form_session`.
 */
export async function postCard(api: Client, body: Record<string, unknown>, options: PostOptions = {}) {
  // The frame's session comes from the same address; the card's own headers are the test's.
  const from = options.headers?.["X-Forwarded-For"];
  const headers: Record<string, string> = from ? { "X-Forwarded-For": from } : {};
  const session = "form_session" in body ? {} : { form_session: await formSession(api, headers) };
  return api.post("/v1/payment-tokens", { ...body, ...session }, options);
}

/** Tokenizes a test card through the proxy, as the card frame does; returns the payment token. */
export async function tokenize(api: Client, card: string = CARDS.ok): Promise<string> {
  const reply = await api.post("/v1/payment-tokens", {
    card_number: card,
    cvv: CVV,
    expiration_date: EXPIRY,
    website: "",
    form_session: await formSession(api),
  });
  if (reply.status !== 201) throw new Error(`tokenizing failed: ${reply.status} ${reply.text}`);
  return reply.json.token as string;
}

/** A valid donation request to HOPE@71777; fields override. */
export function donationBody(token: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    shortcode: "71777",
    keyword: "HOPE",
    amount: "25.00",
    donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org" },
    credit_card_token: token,
    ...fields,
  };
}

/** A card's fields as the frame posts them to /v1/payment-tokens. */
export const cardFields = (number: string = CARDS.ok) => ({
  card_number: number,
  cvv: CVV,
  expiration_date: EXPIRY,
});

/** A card as a frame on the demo campaign posts it: honeypot empty, HOPE@71777 named; fields override. */
export const frameCard = (number: string, extra: Record<string, unknown> = {}) => ({
  ...cardFields(number),
  website: "",
  shortcode: "71777",
  keyword: "HOPE",
  ...extra,
});

/** A proxy whose address and donor alarms sound at 3 declines, its wider alarms kept quiet. */
export const DECLINES_ENV = {
  GIVEKIT_DECLINE_LIMIT: "3",
  GIVEKIT_IDENTITY_DECLINES: "3",
  GIVEKIT_RATE_PAYMENT_TOKENS: "50",
  GIVEKIT_DEFENCE_DECLINES_PER_MIN: "100",
  GIVEKIT_DEFENCE_CAMPAIGN_DECLINES_PER_MIN: "100",
  GIVEKIT_DEFENCE_MIN_SAMPLE: "100",
  GIVEKIT_DEFENCE_BIN_CARDS: "100",
};

/** Three gifts by Ana Doe (three e-mails) on the declined card, each answered 402. */
export async function declineThrice(api: Client): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const body = donationBody(await tokenize(api, CARDS.declined), {
      donor: { first_name: "Ana", last_name: "Doe", email: `ana.${i}@example.org` },
    });
    expect((await donate(api, body)).status).toBe(402);
  }
}

/** Posts a donation with a fresh Idempotency-Key (or the one given). */
export function donate(
  api: Client,
  body: unknown,
  key: string = randomUUID(),
  headers: Record<string, string> = {},
) {
  return api.post("/v1/donations", body, { headers: { "Idempotency-Key": key, ...headers } });
}

export const CONSENT_TEXT =
  "I agree to receive recurring automated text messages from Hope Shelter. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel.";

const CONSENTS_WITH_TEXT = `SELECT consent_records.*, consent_texts.text AS consent_text FROM consent_records
  LEFT JOIN consent_texts ON consent_texts.sha256 = consent_records.consent_text_sha256 ORDER BY id`;

/** The store's rows, read from the proxy's data directory. */
export function readStore(dataDir: string) {
  const db = openSqlite(join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return {
      attempts: db
        .prepare("SELECT * FROM donation_attempts ORDER BY created_at, rowid")
        .all() as AttemptRecord[],
      consents: db.prepare(CONSENTS_WITH_TEXT).all() as ConsentRecord[],
      keys: db.prepare("SELECT * FROM idempotency_keys").all() as Record<string, unknown>[],
    };
  } finally {
    db.close();
  }
}

/** The store's rows on whichever store the proxy runs (SQLite in its data dir, or PostgreSQL). */
export async function storeRows(proxy: ProxyHandle) {
  if (!proxy.databaseUrl) return readStore(proxy.dataDir);
  const url = proxy.databaseUrl;
  return {
    attempts: (await sql(
      url,
      "SELECT * FROM donation_attempts ORDER BY created_at, seq",
    )) as unknown as AttemptRecord[],
    consents: (await sql(url, CONSENTS_WITH_TEXT)) as unknown as ConsentRecord[],
    keys: await sql(url, "SELECT * FROM idempotency_keys"),
  };
}

/** The secrets that must never appear in an answer, a log line or the store. */
export function staticSecrets(): string[] {
  return [
    DEMO.hope.privateToken,
    DEMO.hope.publicToken,
    DEMO.river.privateToken,
    DEMO.river.publicToken,
    ...Object.values(CARDS),
    ...Object.values(CARDS).map((card) => card.replace(/(\d{4})(?=\d)/g, "$1 ")),
    `"${CVV}"`,
  ];
}

/** Which of the secrets occur in any of the texts. */
export function leaks(texts: readonly string[], secrets: readonly string[]): string[] {
  return secrets.filter((secret) => texts.some((text) => text.includes(secret)));
}

export interface Stack {
  sandbox: SandboxHandle;
  proxy: ProxyHandle;
  api: Client;
}

export interface StackOptions {
  sandbox?: StartSandboxOptions;
  proxy?: Omit<StartProxyOptions, "upstreamUrl">;
}

/**
 * A fresh sandbox and proxy for every test of the file, closed after it. After the file,
 * nothing any client received and no log line holds a token, card number or CVV.
 */
export function useStack(options: StackOptions = {}): Stack {
  const ctx = {} as Stack;
  const logs: string[] = [];
  beforeEach(async () => {
    ctx.sandbox = await startSandbox(options.sandbox);
    ctx.proxy = await startProxy({ upstreamUrl: ctx.sandbox.url, ...options.proxy });
    ctx.api = client(ctx.proxy.url);
  });
  afterEach(async () => {
    logs.push(...ctx.proxy.logs);
    await ctx.proxy.close();
    await ctx.sandbox.close();
  });
  afterAll(() => {
    expect(leaks([...received, ...logs], staticSecrets())).toEqual([]);
  });
  return ctx;
}

/** Donations the sandbox collected (money that moved), per its own report. */
export function collected(sandbox: SandboxHandle, keyword?: string) {
  return sandbox.transactions(keyword ? { status: "collected", keyword } : { status: "collected" });
}

/** API calls the sandbox received on a path (no bodies). */
export async function upstreamCalls(sandbox: SandboxHandle, path: string): Promise<number> {
  return (await sandbox.requests()).filter((request) => request.path === path).length;
}

/** Log lines parsed as JSON objects. */
export function logLines(proxy: ProxyHandle): Record<string, unknown>[] {
  return proxy.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
}

export { withCheckDigit } from "../helpers/cards";
