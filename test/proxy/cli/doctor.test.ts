// `givekit doctor` and the command line around it, against the sandbox.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../proxy/cli/main";
import { DEMO, startSandbox, type SandboxHandle } from "../../helpers/sandbox";

const BIN = fileURLToPath(new URL("../../../bin/givekit.js", import.meta.url));
const run = promisify(execFile);

let sandbox: SandboxHandle;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), "givekit-cli-"));
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
    ...extra,
  };
}

async function givekit(args: string[], environment: NodeJS.ProcessEnv) {
  let out = "";
  let err = "";
  const code = await main(
    args,
    environment,
    { write: (text: string) => (out += text) },
    { write: (text: string) => (err += text) },
  );
  return { code, out, err };
}

describe("givekit doctor", () => {
  it("passes every check on a good configuration, one line each, and prints no token", async () => {
    const { code, out } = await givekit(["doctor"], env());
    expect(code).toBe(0);
    expect(out.split("\n").filter(Boolean)).toEqual([
      expect.stringMatching(/^✓ configuration: 2 campaign\(s\), upstream http:\/\/127\.0\.0\.1:\d+/),
      expect.stringMatching(/^✓ store: SQLite: no journal yet in /),
      "✓ defence mode: off (no journal yet)",
      "✓ upstream login: the private token is accepted",
      expect.stringMatching(/^✓ campaign 71777\/HOPE: exists upstream/),
      expect.stringMatching(/^✓ campaign 41444\/MEALS: exists upstream/),
      "All checks passed.",
    ]);
    expect(out).not.toContain(DEMO.hope.privateToken);
    expect(out).not.toContain(DEMO.hope.publicToken);
  });

  it("a refused private token fails the login check and exits 1, without printing the token", async () => {
    const wrong = "not-the-token-0123456789";
    const { code, out } = await givekit(["doctor"], env({ UPSTREAM_PRIVATE_TOKEN: wrong }));
    expect(code).toBe(1);
    expect(out).toMatch(/^✗ upstream login: Login was refused \(HTTP 401\)\.$/m);
    expect(out).not.toContain(wrong);
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
