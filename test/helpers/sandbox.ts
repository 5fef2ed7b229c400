/**
 * Starts the upstream sandbox in-process for a test: in-memory SQLite, 127.0.0.1 on an
 * ephemeral port, the demo fixture unless another is given. Every test that starts one closes it.
 *
 * @example
 * const sandbox = await startSandbox();
 * afterAll(() => sandbox.close());
 * const charged = await sandbox.transactions({ status: "collected", keyword: "HOPE" });
 */
import { request as httpRequest } from "node:http";
import { ReportResponseSchema, type TransactionRow, formatAuthorization } from "../../contract/upstream";
import { DEMO_FIXTURE_PATH, loadFixtureFile, parseFixture } from "../../sandbox/fixture";
import { startSandboxServer } from "../../sandbox/listen";
import type { SubscriptionRecord } from "../../sandbox/ledger";

export type { TransactionRow };

/** The demo fixture's path, for tests that want to spawn the sandbox as a program. */
export { DEMO_FIXTURE_PATH };

/** The demo fixture, read once, through the sandbox's own loader. */
const DEMO_FIXTURE = loadFixtureFile(DEMO_FIXTURE_PATH);

export type DemoAccount = "hope" | "river";

interface DemoTokens {
  privateToken: string;
  publicToken: string;
}

function demoTokens(name: string): DemoTokens {
  const account = DEMO_FIXTURE.accounts.find((candidate) => candidate.name === name);
  if (!account) throw new Error(`The demo fixture has no account named "${name}".`);
  return { privateToken: account.privateToken, publicToken: account.publicToken };
}

/** The demo fixture's tokens: Hope Shelter and River Trust. */
export const DEMO: Record<DemoAccount, DemoTokens> = {
  hope: demoTokens("Hope Shelter"),
  river: demoTokens("River Trust"),
};

/** One row of GET /_sandbox/subscriptions. */
export type SandboxSubscription = SubscriptionRecord;

/** One row of GET /_sandbox/requests: an API call the sandbox received (never its body). */
export interface SandboxRequest {
  method: string;
  path: string;
  at: string;
}

export interface SandboxHandle {
  /** e.g. "http://127.0.0.1:43121" */
  url: string;
  close(): Promise<void>;
  /** Rows of the sandbox's own transactions report (via the reports API), for an account (default hope). */
  transactions(
    filter?: { status?: string; keyword?: string },
    account?: DemoAccount,
  ): Promise<TransactionRow[]>;
  /**
   * What the sandbox's own peer records say each fundraiser or team of a keyword has raised
   * (GET /api/v2/fundraisers|teams, `total_raised`), by id, hidden records and the root page left out.
   */
  peerTotals(kind: "fundraisers" | "teams", keyword?: string): Promise<Map<string, string>>;
  /** Every API call the sandbox has received so far. */
  requests(): Promise<SandboxRequest[]>;
  subscriptions(): Promise<SandboxSubscription[]>;
}

export interface StartSandboxOptions {
  /** A fixture file path or a fixture object; the demo fixture by default. */
  fixture?: string | object;
  /** Session token lifetime in seconds (default 3600). */
  sessionTtlS?: number;
  /** Delay added to every answer, in milliseconds (default 0). */
  latencyMs?: number;
  /** The sandbox's clock (default the system's): a test about dates gives one of its own. */
  now?: () => Date;
}

const DEFAULT_SESSION_TTL_S = 3600;

export async function startSandbox(options: StartSandboxOptions = {}): Promise<SandboxHandle> {
  const fixture =
    options.fixture === undefined
      ? DEMO_FIXTURE
      : typeof options.fixture === "string"
        ? loadFixtureFile(options.fixture)
        : parseFixture(options.fixture);
  const running = await startSandboxServer({
    fixture,
    dbPath: ":memory:",
    host: "127.0.0.1",
    port: 0,
    sessionTtlS: options.sessionTtlS ?? DEFAULT_SESSION_TTL_S,
    latencyMs: options.latencyMs ?? 0,
    now: options.now,
  });
  return sandboxAt(running.url, () => running.close());
}

/** The test's handle on a sandbox that serves `url` (in this process or a program of its own). */
export function sandboxAt(url: string, close: () => Promise<void>): SandboxHandle {
  return {
    url,
    close,
    async transactions(filter = {}, account = "hope") {
      const token = formatAuthorization(DEMO[account].privateToken);
      const created = ReportResponseSchema.parse(
        await getWithBody(`${url}/api/v2/reports/transactions.json`, token, filter),
      );
      const result = ReportResponseSchema.parse(
        await getWithBody(`${url}/api/v2/reports/results.json`, token, { id: created.report.id }),
      );
      return result.report.transactions ?? [];
    },
    async peerTotals(kind, keyword = "HOPE") {
      const login = await fetch(`${url}/api/v2/users/login_with_auth_token`, {
        method: "POST",
        headers: {
          Authorization: formatAuthorization(DEMO.hope.privateToken, "private"),
          Accept: "application/json",
        },
      });
      const session = ((await login.json()) as { user: { session_token: string } }).user.session_token;
      const list = await fetch(`${url}/api/v2/${kind}?shortcode=71777&keyword=${keyword}`, {
        headers: { Authorization: formatAuthorization(session, "session"), Accept: "application/json" },
      });
      const body = (await list.json()) as Record<
        string,
        { id: string; total_raised: string; hidden?: boolean; is_root?: boolean }[]
      >;
      const records = body[kind === "teams" ? "peer_fundraising_teams" : "fundraisers"] ?? [];
      return new Map(
        records.filter((r) => !r.hidden && !r.is_root).map((r) => [String(r.id), r.total_raised]),
      );
    },
    async requests() {
      const requests = `${url}/_sandbox/requests`;
      const body = (await readJson(requests).catch(() => readJson(requests))) as {
        requests: SandboxRequest[];
      };
      return body.requests;
    },
    async subscriptions() {
      const body = (await (await fetch(`${url}/_sandbox/subscriptions`)).json()) as {
        subscriptions: SandboxSubscription[];
      };
      return body.subscriptions;
    },
  };
}

/** A GET's JSON; tried once more on a failed connection (a kept-alive one the sandbox closed as it idled). */
const readJson = (url: string): Promise<unknown> => fetch(url).then((answer) => answer.json());

/** A GET with a JSON body, as the reports API takes it (Node's fetch refuses bodies on GET). */
export function getWithBody(url: string, authorization: string, body: unknown): Promise<unknown> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "GET",
        // A connection of its own: a kept-alive one the sandbox closed as it idled would fail the read.
        agent: false,
        headers: {
          Accept: "application/json",
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(payload),
          Authorization: authorization,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if ((res.statusCode ?? 0) >= 400) {
            reject(new Error(`GET ${url} answered ${res.statusCode}: ${text}`));
            return;
          }
          try {
            resolve(JSON.parse(text));
          } catch (error) {
            reject(error);
          }
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
