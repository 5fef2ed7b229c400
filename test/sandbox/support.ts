/** Test support for the sandbox's own tests: a raw HTTP client and a fresh sandbox per test. */
import { request as httpRequest } from "node:http";
import { afterEach, beforeEach } from "vitest";
import { formatAuthorization, type TokenType } from "../../contract/upstream";
import {
  DEMO,
  type DemoAccount,
  type SandboxHandle,
  startSandbox,
  type StartSandboxOptions,
} from "../helpers/sandbox";
import { FUTURE_EXPIRY } from "../helpers/cards";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // oxlint-disable-next-line typescript/no-explicit-any -- answers are read field by field in assertions
  json: any;
}

export interface CallOptions {
  method?: string;
  authorization?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (wins over body). */
  raw?: string | Buffer;
  contentType?: string;
  timeoutMs?: number;
}

/** Any request, GET bodies included, over node:http; rejects only when no answer comes. */
export function call(baseUrl: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const payload =
    options.raw !== undefined
      ? options.raw
      : options.body === undefined
        ? undefined
        : JSON.stringify(options.body);
  const headers: Record<string, string | number> = { Accept: "application/json" };
  if (payload !== undefined) {
    headers["Content-Type"] = options.contentType ?? "application/json";
    headers["Content-Length"] = Buffer.byteLength(payload);
  }
  if (options.authorization !== undefined) headers.Authorization = options.authorization;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method: options.method ?? "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on("error", reject);
    });
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () => req.destroy(new Error("client timeout")));
    }
    req.on("error", reject);
    req.end(payload);
  });
}

/** Anything with the sandbox's base URL. */
export type Reachable = Pick<SandboxHandle, "url">;

export const auth = (token: string, type?: TokenType) => formatAuthorization(token, type);

/** Logs in with the account's private token and returns the session token. */
export async function login(sandbox: Reachable, account: DemoAccount = "hope"): Promise<string> {
  const answer = await call(sandbox.url, "/api/v2/users/login_with_auth_token", {
    authorization: auth(DEMO[account].privateToken, "private"),
  });
  if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.text}`);
  return answer.json.user.session_token as string;
}

export const GOOD_CARD = { card_number: "4242424242424242", cvv: "123", expiration_date: FUTURE_EXPIRY };

/** A valid donation to HOPE@71777 with the good test card; fields override. */
export function donation(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { shortcode_string: "71777", keyword_string: "HOPE", amount: "25.00", ...GOOD_CARD, ...fields };
}

export function donate(sandbox: Reachable, session: string, body: unknown, timeoutMs?: number) {
  return call(sandbox.url, "/api/v2/donations/donate", {
    authorization: auth(session, "session"),
    body,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

export function subscribe(sandbox: Reachable, body: unknown, account: DemoAccount = "hope") {
  return call(sandbox.url, "/api/v2/subscriptions/subscribe.json", {
    authorization: auth(DEMO[account].publicToken, "public"),
    body,
  });
}

/** Rows of the report with status collected: the money that moved. */
export function collected(sandbox: SandboxHandle, account: DemoAccount = "hope") {
  return sandbox.transactions({ status: "collected" }, account);
}

/**
 * A fresh in-memory sandbox for every test of the file, closed after it.
 *
 * @example
 * const ctx = useSandbox();
 * it("…", async () => { const session = await login(ctx.sandbox); });
 */
export function useSandbox(options: StartSandboxOptions = {}): { sandbox: SandboxHandle } {
  const ctx = {} as { sandbox: SandboxHandle };
  beforeEach(async () => {
    ctx.sandbox = await startSandbox(options);
  });
  afterEach(async () => {
    await ctx.sandbox.close();
  });
  return ctx;
}
