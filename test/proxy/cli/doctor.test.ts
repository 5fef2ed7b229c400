// `givekit doctor` and the command line around it, against the sandbox.
import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { givekit } from "../../helpers/cli";
import { DEFAULT_CAMPAIGNS_PATH } from "../../../proxy/config";
import { DEMO, startSandbox, type SandboxHandle } from "../../helpers/sandbox";

const BIN = fileURLToPath(new URL("../../../bin/givekit.js", import.meta.url));
const run = promisify(execFile);

let sandbox: SandboxHandle;
let dir: string;
/** A set-up a nonprofit would run: its own campaigns file (the demo's two), https origins, a built widget. */
let ownCampaigns: string;
let widgetDir: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), "givekit-cli-"));
  ownCampaigns = join(dir, "own-campaigns.json");
  copyFileSync(DEFAULT_CAMPAIGNS_PATH, ownCampaigns);
  widgetDir = join(dir, "widget");
  mkdirSync(widgetDir);
  // Written now: newer than any source file of the checkout.
  writeFileSync(join(widgetDir, "widget.js"), "/* built */");
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    UPSTREAM_BASE_URL: sandbox.url,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    GIVEKIT_DATA_DIR: dir,
    GIVEKIT_CAMPAIGNS: ownCampaigns,
    GIVEKIT_WIDGET_DIR: widgetDir,
    ALLOWED_ORIGINS: "https://shelter.example",
    ...extra,
  };
}

const subscriptionCount = async () => (await sandbox.subscriptions()).length;

/** The line of one check. */
const line = (out: string, name: string) =>
  out.split("\n").find((text) => text.slice(2).startsWith(`${name}:`));

describe("givekit doctor", () => {
  it("passes every check on a good configuration, one line each, and prints no token", async () => {
    const { code, out } = await givekit(["doctor"], env());
    expect(code).toBe(0);
    expect(out.split("\n").filter(Boolean)).toEqual([
      expect.stringMatching(/^✓ configuration: 2 campaign\(s\), upstream http:\/\/127\.0\.0\.1:\d+/),
      "✓ allowed origins: https://shelter.example",
      `✓ campaigns: 2 from ${ownCampaigns}`,
      expect.stringMatching(new RegExp(`^✓ widget build: built \\S+ in ${widgetDir}$`)),
      "· challenge: none configured (TURNSTILE_SITE_KEY, TURNSTILE_SECRET): defence mode asks givekit's own challenge (a proof of work)",
      "· human check: none configured (TURNSTILE_SITE_KEY, TURNSTILE_SECRET): the defence can only budget the cards that reach the network (6 declines and 8 unanswered tokenizations a client, 15 and 20 a campaign, in 600 s); past a budget everyone there waits, people too, until a probe is charged",
      `✓ data directory: ${dir} is this user's to write`,
      expect.stringMatching(/^✓ store: SQLite: no database yet in /),
      "✓ defence mode: off (no database yet)",
      "· client address: GIVEKIT_TRUST_PROXY=loopback (the default: HOST is loopback); set GIVEKIT_METRICS_TOKEN so doctor can see how a running proxy reads addresses",
      "✓ upstream login: the private token is accepted",
      "✓ upstream public token: the public token is accepted (a check that subscribes nobody: HTTP 400)",
      expect.stringMatching(/^✓ campaign 71777\/HOPE: exists upstream/),
      expect.stringMatching(/^✓ campaign 41444\/MEALS: exists upstream/),
      '· opt-in lists: "Hope Alerts", "Volunteers": not checked (set GIVEKIT_METRICS_TOKEN so doctor can read the running proxy\'s counts); the service\'s API has no read of an account\'s lists, so doctor reads what opt-ins met at the running proxy',
      "All checks passed.",
    ]);
    expect(out).not.toContain(DEMO.hope.privateToken);
    expect(out).not.toContain(DEMO.hope.publicToken);
  });

  it("a refused private token fails the login check and exits 1, without printing the token", async () => {
    const wrong = "not-the-token-0123456789";
    const { code, out } = await givekit(["doctor"], env({ UPSTREAM_PRIVATE_TOKEN: wrong }));
    expect(code).toBe(1);
    expect(line(out, "upstream login")).toBe(
      "✗ upstream login: UPSTREAM_PRIVATE_TOKEN: Login was refused (HTTP 401). Fix: set UPSTREAM_PRIVATE_TOKEN to the account's private API token",
    );
    expect(out).not.toContain(wrong);
  });

  it("a refused public token fails its own check and exits 1; the check subscribed nobody", async () => {
    const wrong = "not-the-public-token-0123";
    const before = await subscriptionCount();
    const { code, out } = await givekit(["doctor"], env({ UPSTREAM_PUBLIC_TOKEN: wrong }));
    expect(code).toBe(1);
    expect(line(out, "upstream public token")).toBe(
      "✗ upstream public token: UPSTREAM_PUBLIC_TOKEN: The public token was refused. Fix: set UPSTREAM_PUBLIC_TOKEN to the account's public API token",
    );
    expect(line(out, "upstream login")).toMatch(/^✓/);
    expect(out).toMatch(/^1 check\(s\) failed\.$/m);
    expect(out).not.toContain(wrong);
    // The private token in the public one's place is refused too (a token of the wrong type).
    const swapped = await givekit(["doctor"], env({ UPSTREAM_PUBLIC_TOKEN: DEMO.hope.privateToken }));
    expect(line(swapped.out, "upstream public token")).toMatch(/^✗ /);
    expect(await subscriptionCount()).toBe(before);
  });

  it("a value holding control characters is printed escaped, never run by the terminal, as text and as JSON", async () => {
    const hostile = "10.0.0.1\u001b[2J\u0085\u202e";
    const text = await givekit(["doctor"], env({ GIVEKIT_TRUST_PROXY: hostile }));
    expect(text.code).toBe(1);
    expect(text.out).toContain("10.0.0.1\\u001b[2J\\u0085\\u202e");
    const json = await givekit(["doctor", "--json"], env({ GIVEKIT_TRUST_PROXY: hostile }));
    for (const { out } of [text, json])
      // oxlint-disable-next-line no-control-regex -- the bytes that must not reach a terminal.
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(JSON.stringify(JSON.parse(json.out))).toContain("10.0.0.1\\u001b[2J");
  });

  it("no ALLOWED_ORIGINS: a failed line saying no page may use the widgets", async () => {
    const { code, out } = await givekit(["doctor"], env({ ALLOWED_ORIGINS: "" }));
    expect(code).toBe(1);
    expect(line(out, "allowed origins")).toBe(
      "✗ allowed origins: ALLOWED_ORIGINS: is empty: no page may use the widgets or frame the card form. Fix: set ALLOWED_ORIGINS to the origins of the pages that show the widgets, e.g. https://www.example.org",
    );
  });

  it("http: origins fail with NODE_ENV=production, naming them, and pass without it", async () => {
    const origins = "https://shelter.example,http://shelter.example";
    const production = await givekit(["doctor"], env({ ALLOWED_ORIGINS: origins, NODE_ENV: "production" }));
    expect(production.code).toBe(1);
    expect(line(production.out, "allowed origins")).toBe(
      "✗ allowed origins: ALLOWED_ORIGINS: holds http: origins with NODE_ENV=production (http://shelter.example): donors' pages must be served over https. Fix: list the https:// origins of those pages instead",
    );
    const development = await givekit(["doctor"], env({ ALLOWED_ORIGINS: origins }));
    expect(line(development.out, "allowed origins")).toMatch(/^✓ /);
  });

  it("the demo campaigns file (GIVEKIT_CAMPAIGNS unset) fails its line", async () => {
    const { code, out } = await givekit(["doctor"], env({ GIVEKIT_CAMPAIGNS: "" }));
    expect(code).toBe(1);
    expect(line(out, "campaigns")).toBe(
      "✗ campaigns: GIVEKIT_CAMPAIGNS: the demo campaigns file is in use (proxy/campaigns.demo.json). Fix: set GIVEKIT_CAMPAIGNS to your own campaigns file",
    );
  });

  it("a widget build that is missing, or older than the sources, fails its line", async () => {
    const missing = await givekit(["doctor"], env({ GIVEKIT_WIDGET_DIR: join(dir, "no-build") }));
    expect(missing.code).toBe(1);
    expect(line(missing.out, "widget build")).toBe(
      `✗ widget build: GIVEKIT_WIDGET_DIR: ${join(dir, "no-build", "widget.js")} is missing. Fix: run \`npm run build\`, or set GIVEKIT_WIDGET_DIR to the built widget`,
    );
    const old = join(dir, "old-build");
    mkdirSync(old, { recursive: true });
    writeFileSync(join(old, "widget.js"), "/* built long ago */");
    utimesSync(join(old, "widget.js"), new Date("2020-01-01"), new Date("2020-01-01"));
    const stale = await givekit(["doctor"], env({ GIVEKIT_WIDGET_DIR: old }));
    expect(stale.code).toBe(1);
    expect(line(stale.out, "widget build")).toMatch(
      /^✗ widget build: GIVEKIT_WIDGET_DIR: \S+widget\.js is older than (widget|contract)\/\S+ \(built 2020-01-01T00:00:00Z, source changed \S+\)\. Fix: run `npm run build`$/,
    );
  });

  it("a Turnstile challenge configured is said in a line, as is none; neither fails", async () => {
    const { code, out } = await givekit(
      ["doctor"],
      env({ TURNSTILE_SITE_KEY: "0x4AAAAAAAdoctor", TURNSTILE_SECRET: "0x4AAAAAAAsecret-doctor" }),
    );
    expect(code).toBe(0);
    expect(line(out, "challenge")).toBe(
      "· challenge: Turnstile configured (site key 0x4AAAAAAAdoctor): defence mode asks for it",
    );
    expect(line(out, "human check")).toMatch(
      /^· human check: Turnstile configured: a person passes an open circuit breaker/,
    );
    expect(out).not.toContain("0x4AAAAAAAsecret-doctor");
  });

  it("a served campaign the upstream does not have fails its own check, naming it", async () => {
    const campaigns = join(dir, "campaigns.json");
    const campaign = {
      shortcode: "71777",
      keyword: "NOSUCH",
      fee_rate: "0.03",
      max_amount: "100.00",
      currency: "USD",
      recurring_frequencies: [],
      peer_fundraising: false,
      opt_in_lists: [],
    };
    writeFileSync(campaigns, JSON.stringify({ campaigns: [campaign] }));
    const { code, out } = await givekit(["doctor"], env({ GIVEKIT_CAMPAIGNS: campaigns }));
    expect(code).toBe(1);
    expect(out).toMatch(/^✓ upstream login/m);
    expect(out).toMatch(/^✗ campaign 71777\/NOSUCH: .*HTTP 404/m);
  });

  it("a bad configuration is the first failed check, naming the variable", async () => {
    const { code, out } = await givekit(["doctor"], env({ UPSTREAM_BASE_URL: "ftp://x" }));
    expect(code).toBe(1);
    expect(out).toMatch(/^✗ configuration: UPSTREAM_BASE_URL: /);
  });
});

interface Report {
  ok: boolean;
  checks: { check: string; status: string; text: string; variable?: string; fix?: string }[];
}

/**
 * doctor run by a user whom a file's mode keeps out. Root reads past every mode, so as root it
 * runs with the two capabilities that let it (DAC override and read-search) dropped: still the
 * owner of the checkout wherever it was cloned (a mode-700 home included), but kept out of a file
 * of mode 000 as the proxy's user would be. Another user (`nobody`) could not reach a checkout in
 * a mode-700 folder at all.
 */
const asRoot = process.getuid?.() === 0;
const WITHOUT_ROOT_READS = ["--bounding-set", "-dac_override,-dac_read_search", process.execPath];
const lock = (path: string) => chmodSync(path, 0o000);

/** doctor --json through the bin, kept out of what `lock` locked. */
async function doctorAsOther(environment: NodeJS.ProcessEnv): Promise<{ code: number; report: Report }> {
  const [command, args] = asRoot
    ? ["setpriv", [...WITHOUT_ROOT_READS, BIN, "doctor", "--json"]]
    : [process.execPath, [BIN, "doctor", "--json"]];
  const answer = await run(command, args, {
    env: { ...process.env, HOME: tmpdir(), ...environment },
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  if (!answer.stdout.trim()) throw new Error(`doctor printed no report: ${answer.stderr}`);
  return {
    code: "code" in answer ? answer.code : 0,
    report: JSON.parse(answer.stdout) as Report,
  };
}

describe("givekit doctor: every ✗ says what to change and how", () => {
  it("a campaigns file missing, unreadable, not JSON or not the schema: four messages, each naming the file and its fix", async () => {
    const shared = mkdtempSync(join(tmpdir(), "givekit-campaigns-"));
    chmodSync(shared, 0o755);
    const missing = join(shared, "missing.json");
    const unreadable = join(shared, "unreadable.json");
    copyFileSync(ownCampaigns, unreadable);
    lock(unreadable);
    const notJson = join(shared, "not-json.json");
    writeFileSync(notJson, '{"campaigns": [ {"shortcode": "71777",, } ]}');
    const notSchema = join(shared, "not-schema.json");
    writeFileSync(notSchema, JSON.stringify({ campaigns: [{ shortcode: "71777" }] }));
    chmodSync(notJson, 0o644);
    chmodSync(notSchema, 0o644);
    try {
      const seen = [];
      for (const [path, problem, fix] of [
        [missing, /no such file/, /create it/],
        [unreadable, /cannot read it \(permission denied, E(ACCES|PERM)\)/, /let the proxy's user read it/],
        [notJson, /not JSON \(.+\)/, /correct the JSON/],
        [notSchema, /campaigns\.0\.keyword/, /correct that entry/],
      ] as const) {
        const { code, report } = await doctorAsOther(
          env({ GIVEKIT_CAMPAIGNS: path, GIVEKIT_DATA_DIR: shared }),
        );
        expect(code, path).toBe(1);
        const configuration = report.checks.find((check) => check.check === "configuration")!;
        expect(configuration, path).toMatchObject({ status: "fail", variable: "GIVEKIT_CAMPAIGNS" });
        expect(configuration.text, path).toContain(path);
        expect(configuration.text, path).toMatch(problem);
        expect(configuration.fix, path).toMatch(fix);
        expect(configuration.text, path).toContain(`Fix: ${configuration.fix}`);
        seen.push(configuration.text.replace(path, "FILE").split(". Fix:")[0]);
      }
      expect(new Set(seen).size).toBe(4);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it("run by a user who cannot enter the data directory: no ✓ beside a real store, the permission named", async () => {
    const shared = mkdtempSync(join(tmpdir(), "givekit-store-"));
    chmodSync(shared, 0o755);
    const dataDir = join(shared, "data");
    const campaigns = join(shared, "campaigns.json");
    copyFileSync(ownCampaigns, campaigns);
    chmodSync(campaigns, 0o644);
    try {
      // A real store, made as the proxy's user would make it.
      expect((await givekit(["migrate"], env({ GIVEKIT_DATA_DIR: dataDir }))).code).toBe(0);
      lock(dataDir);
      const { code, report } = await doctorAsOther(
        env({ GIVEKIT_DATA_DIR: dataDir, GIVEKIT_CAMPAIGNS: campaigns, GIVEKIT_WIDGET_DIR: shared }),
      );
      expect(code).toBe(1);
      for (const name of ["data directory", "store", "defence mode"]) {
        const check = report.checks.find((found) => found.check === name)!;
        expect(check, name).toMatchObject({ status: "fail", variable: "GIVEKIT_DATA_DIR" });
        expect(check.text, name).toContain(dataDir);
        expect(check.text, name).toMatch(/permission denied, E(ACCES|PERM)/);
        expect(check.fix, name).toMatch(/run doctor as the proxy's user/);
      }
      expect(report.checks.filter((check) => check.text.includes("no database yet"))).toEqual([]);
      // Every failure, whatever its check, names a fix.
      for (const check of report.checks.filter((found) => found.status === "fail"))
        expect(check.fix, check.check).toBeTruthy();
    } finally {
      chmodSync(dataDir, 0o700);
      rmSync(shared, { recursive: true, force: true });
    }
  });
});

describe("the givekit command line", () => {
  it("--help lists the commands and exits 0; each command explains itself", async () => {
    const help = await givekit(["--help"], env());
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Usage: givekit <command>/);
    expect(help.out).toMatch(/^ {2}doctor {2}/m);
    const doctor = await givekit(["doctor", "--help"], env());
    expect(doctor).toMatchObject({ code: 0, out: expect.stringMatching(/^Usage: givekit doctor/) });
  });

  it("a bad flag, an unknown command or none at all exits 2 with the usage", async () => {
    for (const args of [["doctor", "--colour"], ["reboot"], []]) {
      const { code, err } = await givekit(args, env());
      expect(code, args.join(" ")).toBe(2);
      expect(err, args.join(" ")).toMatch(/Usage: givekit/);
    }
  });

  it("runs as a program through the package's bin (npx givekit)", async () => {
    const { stdout } = await run(process.execPath, [BIN, "doctor"], { env: { ...process.env, ...env() } });
    expect(stdout).toMatch(/All checks passed\./);
    const failed = await run(process.execPath, [BIN, "doctor", "--nope"], {
      env: { ...process.env, ...env() },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown option '--nope'/) });
  });
});
