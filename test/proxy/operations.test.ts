// What the operator sees is true: request ids that join the reverse proxy's logs, log levels by
// whose problem it is, a drain that says "stopping" before it closes, a second signal that does
// not wait, a production start that refuses the demo set-up, a data directory named when it
// cannot be used, migrate beside a running proxy, doctor on a wrong upstream path, and the
// figures on-call asks for first.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { givekit as runGivekit } from "../helpers/cli";
import { DB_FILE } from "../../proxy/store/sqlite/data-dir";
import { SQLITE_SCHEMA_VERSION } from "../../proxy/store/sqlite/schema";
import { openSqlite } from "../../sqlite/open";
import { runProxy, spawnProxy } from "../helpers/proxy-process";
import { slowDonations } from "../helpers/slow-upstream";
import { startProxy } from "../helpers/proxy";
import { DEMO, startSandbox, type SandboxHandle } from "../helpers/sandbox";
import {
  CARDS,
  client,
  CVV,
  DONATE_PATH,
  donate,
  donationBody,
  EXPIRY,
  logLines,
  postCard,
  tokenize,
  upstreamCalls,
} from "./support";

const METRICS_TOKEN = "metrics-token-for-the-operations-test";
const BEARER = { Authorization: `Bearer ${METRICS_TOKEN}` };

let sandbox: SandboxHandle;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), "givekit-operations-"));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const givekit = (args: string[], env: NodeJS.ProcessEnv) =>
  runGivekit(args, {
    UPSTREAM_BASE_URL: sandbox.url,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    ...env,
  });

/** Sends raw bytes as one HTTP request; resolves with the status line. */
function rawRequest(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("end", () => resolve(answer.split("\r\n")[0]!));
    socket.on("error", reject);
  });
}

describe("X-Request-Id", () => {
  it("a plain one is taken, answered and on every log line of its request; a bad one is replaced", async () => {
    const proxy = await startProxy({ upstreamUrl: sandbox.url, env: { GIVEKIT_TRUST_PROXY: "none" } });
    try {
      const api = client(proxy.url);
      // A forwarded header from a peer not trusted: a warning logged while the request is answered.
      const taken = await api.get("/v1/campaigns/71777/HOPE", {
        "X-Request-Id": "edge-7f3a-42",
        "X-Forwarded-For": "9.9.9.9",
      });
      expect(taken.headers.get("x-request-id")).toBe("edge-7f3a-42");
      const lines = logLines(proxy).filter((line) => line.reqId === "edge-7f3a-42");
      expect(lines.map((line) => line.msg)).toEqual([
        expect.stringContaining("X-Forwarded-For came from"),
        "request",
      ]);

      for (const bad of [
        "x".repeat(129),
        "a b",
        "<script>",
        "id;drop",
        "ümlaut".normalize("NFD").replace(/[^\x20-\x7e]/g, "?"),
      ]) {
        const reply = await api.get("/v1/health", { "X-Request-Id": bad });
        const made = reply.headers.get("x-request-id");
        expect(made).toMatch(/^[\w-]{22}$/);
        expect(logLines(proxy).at(-1)).toMatchObject({ reqId: made, path: "/v1/health" });
      }
      // Control characters never reach the app: the HTTP parser refuses them, and the proxy goes on.
      const status = await rawRequest(
        proxy.url,
        "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\x01b\x1b[2J\r\nConnection: close\r\n\r\n",
      );
      expect(status).toBe("HTTP/1.1 400 Bad Request");
      expect((await api.get("/v1/health")).status).toBe(200);
      expect(proxy.logs.join("\n")).not.toContain("\u001b");
    } finally {
      await proxy.close();
    }
  });
});

describe("log levels, by whose problem it is", () => {
  it(
    "the upstream's 500 or reset on a donation (charge unknown): warn; a card's Fatal answer: info",
    { timeout: 20_000 },
    async () => {
      const proxy = await startProxy({
        upstreamUrl: sandbox.url,
        env: { UPSTREAM_TIMEOUT_MS: "1000", GIVEKIT_RECONCILE_INTERVAL_S: "0" },
      });
      try {
        const api = client(proxy.url);
        const serverError = await donate(api, donationBody(await tokenize(api), { amount: "666.66" }));
        const reset = await donate(api, donationBody(await tokenize(api), { amount: "888.88" }));
        const fatal = await donate(api, donationBody(await tokenize(api, CARDS.fatal)));
        expect([serverError.status, reset.status]).toEqual([202, 202]);
        expect(fatal.status).toBe(502);
        const donations = logLines(proxy).filter(
          (line) => line.msg === "request" && line.path === "/v1/donations",
        );
        expect(donations.map((line) => [line.status, line.level])).toEqual([
          [202, 40],
          [202, 40],
          [502, 30],
        ]);
      } finally {
        await proxy.close();
      }
    },
  );
});

describe("stopping", () => {
  it(
    "readiness says stopping first, for GIVEKIT_STOP_DELAY_S, while a donation in flight completes; then the listener closes; exit 0",
    { timeout: 30_000 },
    async () => {
      const proxy = await spawnProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        GIVEKIT_DATA_DIR: join(dir, "drain"),
        UPSTREAM_TIMEOUT_MS: "2500",
        GIVEKIT_STOP_DELAY_S: "1",
      });
      const api = client(proxy.url);
      const before = await upstreamCalls(sandbox, DONATE_PATH);
      // 999.99: the sandbox never answers and charges nothing; the proxy answers Pending at its timeout.
      const slow = donate(api, donationBody(await tokenize(api), { amount: "999.99" }));
      await expect.poll(() => upstreamCalls(sandbox, DONATE_PATH), { interval: 20 }).toBe(before + 1);
      const stopAsked = performance.now();
      proxy.child.kill("SIGTERM");
      await expect.poll(async () => (await api.get("/v1/ready")).status, { interval: 20 }).toBe(503);
      expect((await api.get("/v1/ready")).json).toEqual({ status: "stopping" });
      // Still serving what donors' pages ask for during the delay.
      expect((await api.get("/v1/campaigns/71777/HOPE")).status).toBe(200);
      await expect
        .poll(
          () =>
            fetch(`${proxy.url}/v1/health`).then(
              () => "open",
              () => "refused",
            ),
          { interval: 50, timeout: 10_000 },
        )
        .toBe("refused");
      expect(performance.now() - stopAsked).toBeGreaterThanOrEqual(900);
      const answer = await slow;
      expect(answer.status).toBe(202);
      expect(await proxy.exited).toBe(0);
      const stopping = proxy
        .output()
        .stdout.trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === "proxy stopping");
      expect(stopping).toMatchObject({ signal: "SIGTERM", delayMs: 1000 });
    },
  );

  it(
    "a second signal exits within a second, whatever is in flight or still to wait",
    { timeout: 30_000 },
    async () => {
      const proxy = await spawnProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        GIVEKIT_DATA_DIR: join(dir, "second"),
        UPSTREAM_TIMEOUT_MS: "15000",
        GIVEKIT_STOP_DELAY_S: "10",
      });
      const api = client(proxy.url);
      const before = await upstreamCalls(sandbox, DONATE_PATH);
      const slow = donate(api, donationBody(await tokenize(api), { amount: "999.99" })).then(
        (reply) => reply.status,
        () => "cut off",
      );
      await expect.poll(() => upstreamCalls(sandbox, DONATE_PATH), { interval: 20 }).toBe(before + 1);
      proxy.child.kill("SIGTERM");
      await expect.poll(async () => (await api.get("/v1/ready")).status, { interval: 20 }).toBe(503);
      const second = performance.now();
      proxy.child.kill("SIGTERM");
      expect(await proxy.exited).toBe(1);
      expect(performance.now() - second).toBeLessThan(1000);
      expect(await slow).toBe("cut off");
    },
  );
});

describe("kept-alive connections", () => {
  /** One socket, requests sent on it one after another as a reverse proxy's kept-alive upstream connection does. */
  function rawConnection(url: string) {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    let received = "";
    let closed = false;
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("close", () => (closed = true));
    return {
      async get(path: string): Promise<string> {
        received = "";
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
        await expect.poll(() => /\r\n\r\n[\s\S]*\}/.test(received), { interval: 20 }).toBe(true);
        return received;
      },
      closed: () => closed,
      end: () => socket.destroy(),
    };
  }

  it(
    "an idle connection stays open 65 s by default (longer than nginx's and most balancers' 60 s), and GIVEKIT_KEEP_ALIVE_S long when set",
    { timeout: 30_000 },
    async () => {
      const proxy = await spawnProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        GIVEKIT_DATA_DIR: join(dir, "keep-alive"),
      });
      const connection = rawConnection(proxy.url);
      try {
        expect(await connection.get("/v1/health")).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
        // Past Node's own 5 s, the proxy has not closed it: the next request on it is answered.
        await new Promise((resolve) => setTimeout(resolve, 6000));
        expect(connection.closed()).toBe(false);
        expect(await connection.get("/v1/health")).toMatch(/^HTTP\/1\.1 200/);
      } finally {
        connection.end();
        await proxy.stop();
      }
      const short = await spawnProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        GIVEKIT_DATA_DIR: join(dir, "keep-alive-short"),
        GIVEKIT_KEEP_ALIVE_S: "1",
      });
      const brief = rawConnection(short.url);
      try {
        expect(await brief.get("/v1/health")).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
        await expect.poll(() => brief.closed(), { interval: 100, timeout: 10_000 }).toBe(true);
      } finally {
        brief.end();
        await short.stop();
      }
    },
  );
});

describe("givekit serve (the bin, as the GUIDE's unit starts it), with an upstream that answers a donation after 10 s", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "a second %s ends the donation in flight and exits within a second",
    { timeout: 60_000 },
    async (signal) => {
      const slow = await slowDonations(sandbox.url, 10_000);
      try {
        const proxy = await spawnProxy(
          {
            UPSTREAM_BASE_URL: slow.url,
            GIVEKIT_DATA_DIR: join(dir, `second-${signal}`),
            // Readiness answers "stopping" for a while, so the test sees the first signal taken.
            GIVEKIT_STOP_DELAY_S: "10",
          },
          "bin",
        );
        const api = client(proxy.url);
        const before = await upstreamCalls(sandbox, DONATE_PATH);
        const inFlight = donate(api, donationBody(await tokenize(api))).then(
          (reply) => reply.status,
          () => "cut off",
        );
        // The donation has reached the upstream, which holds its answer.
        await expect
          .poll(() => upstreamCalls(sandbox, DONATE_PATH), { interval: 50, timeout: 15_000 })
          .toBe(before);
        await new Promise((resolve) => setTimeout(resolve, 300));
        proxy.child.kill(signal);
        await expect.poll(async () => (await api.get("/v1/ready")).status, { interval: 20 }).toBe(503);
        const second = performance.now();
        proxy.child.kill(signal);
        expect(await proxy.exited).toBe(1);
        expect(performance.now() - second).toBeLessThan(1000);
        expect(await inFlight).toBe("cut off");
      } finally {
        await slow.close();
      }
    },
  );
});

describe("givekit serve with NODE_ENV=production", () => {
  it(
    "refuses the demo campaigns and no ALLOWED_ORIGINS, naming both and the way to insist",
    { timeout: 30_000 },
    async () => {
      const program = runProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        GIVEKIT_DATA_DIR: join(dir, "demo"),
        NODE_ENV: "production",
      });
      expect(await program.exited).toBe(1);
      const { stderr } = program.output();
      expect(stderr).toMatch(/GIVEKIT_CAMPAIGNS is the demo campaigns file, with NODE_ENV=production/);
      expect(stderr).toMatch(/ALLOWED_ORIGINS is empty, with NODE_ENV=production/);
      expect(stderr).toMatch(/GIVEKIT_ALLOW_DEMO_SETUP=true/);
      const insisted = await spawnProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        GIVEKIT_DATA_DIR: join(dir, "demo"),
        NODE_ENV: "production",
        GIVEKIT_ALLOW_DEMO_SETUP: "true",
      });
      expect((await client(insisted.url).get("/v1/health")).status).toBe(200);
      await insisted.stop();
    },
  );
});

describe("a data directory this user cannot use", () => {
  it(
    "serve, migrate and doctor each name GIVEKIT_DATA_DIR and the fix, without a stack",
    { timeout: 30_000 },
    async () => {
      const file = join(dir, "a-file");
      writeFileSync(file, "not a directory");
      const dataDir = join(file, "data");
      const program = runProxy({ UPSTREAM_BASE_URL: sandbox.url, GIVEKIT_DATA_DIR: dataDir });
      expect(await program.exited).toBe(1);
      const { stderr } = program.output();
      expect(stderr).toMatch(
        /GIVEKIT_DATA_DIR: .*a-file\/data is not a directory \(ENOTDIR\): give the proxy's user a directory/,
      );
      expect(stderr).not.toMatch(/^\s+at /m);
      const migrate = await givekit(["migrate"], { GIVEKIT_DATA_DIR: dataDir });
      expect(migrate.code).toBe(1);
      expect(migrate.out).toMatch(/^givekit migrate: cannot open the store: GIVEKIT_DATA_DIR: .*ENOTDIR/m);
      const doctor = await givekit(["doctor"], { GIVEKIT_DATA_DIR: dataDir });
      expect(doctor.code).toBe(1);
      expect(doctor.out).toMatch(
        /^✗ data directory: GIVEKIT_DATA_DIR: .* cannot be used by this user \(ENOTDIR\)\. Fix: /m,
      );
    },
  );
});

describe("givekit migrate beside a running SQLite proxy", () => {
  it("says the schema is already current and exits 0", async () => {
    const proxy = await startProxy({ upstreamUrl: sandbox.url });
    try {
      const { code, out } = await givekit(["migrate"], { GIVEKIT_DATA_DIR: proxy.dataDir });
      expect(code).toBe(0);
      expect(out).toMatch(
        /schema already at version \d+ \(a running proxy holds it and migrated it when it started\); nothing to do\./,
      );
    } finally {
      await proxy.close();
    }
  });
});

describe("a SQLite store of an older schema", () => {
  it("doctor and the other commands say to run givekit migrate", async () => {
    const dataDir = join(dir, "older");
    expect((await givekit(["migrate"], { GIVEKIT_DATA_DIR: dataDir })).code).toBe(0);
    const db = openSqlite(join(dataDir, DB_FILE));
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION - 1}`);
    db.close();
    const doctor = await givekit(["doctor"], { GIVEKIT_DATA_DIR: dataDir });
    expect(doctor.out).toMatch(
      /^✗ store: GIVEKIT_DATA_DIR: the store's schema is version \d+, this givekit knows \d+: run `givekit migrate`/m,
    );
    const attempts = await givekit(["attempts"], { GIVEKIT_DATA_DIR: dataDir });
    expect(attempts.code).not.toBe(0);
    expect(attempts.out + attempts.err).toMatch(/run `givekit migrate`/);
  });
});

describe("givekit doctor and the command line", () => {
  it("an UPSTREAM_BASE_URL with a wrong path fails (a 404 is not an accepted token), naming the variable; --json says the same", async () => {
    const env = { UPSTREAM_BASE_URL: `${sandbox.url}/gateway`, GIVEKIT_DATA_DIR: join(dir, "doctor") };
    const lines = await givekit(["doctor"], env);
    expect(lines.code).toBe(1);
    expect(lines.out).toMatch(
      /^✗ upstream public token: UPSTREAM_BASE_URL: the upstream answered HTTP 404 at the subscribe path/m,
    );
    expect(lines.out).toMatch(/^✗ upstream login: UPSTREAM_BASE_URL: the upstream answered HTTP 404/m);
    expect(lines.out).not.toMatch(/token is accepted/);
    const json = await givekit(["doctor", "--json"], env);
    const report = JSON.parse(json.out) as {
      ok: boolean;
      checks: { check: string; status: string; variable?: string; fix?: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => check.check === "upstream public token")).toMatchObject({
      status: "fail",
      variable: "UPSTREAM_BASE_URL",
      fix: expect.stringContaining("without /api/v2"),
    });
    // Every failure names its variable.
    for (const check of report.checks.filter((each) => each.status === "fail"))
      expect(check.variable, check.check).toMatch(/^[A-Z_]+$/);
    // The path the proxy adds itself is a configuration error, not a token's.
    const doubled = await givekit(["doctor", "--json"], {
      ...env,
      UPSTREAM_BASE_URL: `${sandbox.url}/api/v2`,
    });
    expect((JSON.parse(doubled.out) as typeof report).checks).toEqual([
      expect.objectContaining({
        check: "configuration",
        status: "fail",
        variable: "UPSTREAM_BASE_URL",
        text: expect.stringContaining("without /api/v2"),
      }),
    ]);
  });

  it("--version prints the package's version; an old variable's line comes from every command", async () => {
    const version = await givekit(["--version"], {});
    expect(version).toMatchObject({ code: 0, out: expect.stringMatching(/^givekit \d+\.\d+\.\d+\n$/) });
    const attempts = await givekit(["attempts"], {
      GIVEKIT_DATA_DIR: join(dir, "old"),
      GIVEKIT_TRUST_PROXY: "true",
    });
    expect(attempts.err).toMatch(
      /^givekit attempts: GIVEKIT_TRUST_PROXY=true \(or 1, a hop count\) is now GIVEKIT_TRUST_PROXY=loopback/m,
    );
    const doctor = await givekit(["doctor"], {
      GIVEKIT_DATA_DIR: join(dir, "old"),
      GIVEKIT_TRUST_PROXY: "true",
    });
    expect(doctor.out).toMatch(/^· deprecated: GIVEKIT_TRUST_PROXY=true/m);
    const refused = await givekit(["doctor"], {
      GIVEKIT_DATA_DIR: join(dir, "old"),
      GIVEKIT_TRUST_PROXY: "2",
    });
    expect(refused.out).toMatch(
      /^✗ configuration: GIVEKIT_TRUST_PROXY: a number of hops \(2\) no longer says whom to trust: name the reverse proxies by address or range/m,
    );
  });
});

describe("GET /metrics", () => {
  it(
    "process figures, build info, requests per route (bounded), opt-ins by outcome, reconciler passes and what they settled",
    { timeout: 20_000 },
    async () => {
      const proxy = await startProxy({
        upstreamUrl: sandbox.url,
        env: {
          GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
          UPSTREAM_TIMEOUT_MS: "800",
          GIVEKIT_RECONCILE_INTERVAL_S: "1",
          GIVEKIT_RECONCILE_SETTLE_S: "1",
        },
      });
      try {
        const api = client(proxy.url);
        // Charged, then no answer: unknown, which the reconciler finds in the report.
        const lost = await donate(api, donationBody(await tokenize(api), { amount: "777.77" }));
        expect(lost.status).toBe(202);
        expect((await api.get(`/v1/donations/${lost.json.donation.reference}`)).status).toBe(200);
        for (const path of ["/nothing/1", "/nothing/2", "/v1/nothing"])
          expect((await api.get(path)).status).toBe(404);
        const optIn = {
          mobilenumber: "5550101234",
          list: "Hope Alerts",
          consent: true,
          consent_text: "I agree to receive recurring automated messages.",
        };
        expect((await api.post("/v1/subscriptions", optIn)).status).toBe(201);
        // A filled honeypot: a bot, refused as a decline would be, counted by its reason.
        const bot = await postCard(api, {
          card_number: CARDS.ok,
          cvv: CVV,
          expiration_date: EXPIRY,
          website: "bot",
        });
        expect(bot.status).toBe(402);
        const scrape = async () => (await api.get("/metrics", BEARER)).text;
        await expect
          .poll(scrape, { timeout: 10_000, interval: 200 })
          .toMatch(/^givekit_reconcile_settled_total\{state="succeeded"\} 1$/m);
        const text = await scrape();
        expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
        expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
        expect(text).toMatch(/^givekit_build_info\{version="\d+\.\d+\.\d+",node="v\d+\.\d+\.\d+"\} 1$/m);
        expect(text).toMatch(
          /^givekit_http_requests_total\{route="\/v1\/donations",method="POST",status="2xx"\} 1$/m,
        );
        expect(text).toMatch(
          /^givekit_http_requests_total\{route="\/v1\/donations\/:reference",method="GET",status="2xx"\} 1$/m,
        );
        expect(text).toMatch(
          /^givekit_http_requests_total\{route="unmatched",method="GET",status="4xx"\} 3$/m,
        );
        expect(text).toMatch(
          /^givekit_http_request_duration_seconds_count\{route="\/v1\/donations",method="POST"\} 1$/m,
        );
        expect(text).toMatch(/^givekit_opt_ins_total\{outcome="subscribed"\} 1$/m);
        expect(text).toMatch(/^givekit_reconcile_passes_total\{result="ok"\} [1-9]/m);
        expect(text).toMatch(/^givekit_bot_refusals_total\{reason="honeypot"\} 1$/m);
        // Bounded: no raw path, no reference, no address in a label.
        expect(text).not.toContain("/nothing");
        expect(text).not.toContain(lost.json.donation.reference);
        expect(text).not.toContain("127.0.0.1");
      } finally {
        await proxy.close();
      }
    },
  );
});
