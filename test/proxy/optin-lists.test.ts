// An opt-in list the upstream's account does not have: the operator's mistake, told as theirs
// (the request's line at warn naming the list, a counter) and caught by givekit doctor.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../proxy/cli/main";
import { DEFAULT_CAMPAIGNS_PATH } from "../../proxy/config";
import { startProxy, type ProxyHandle } from "../helpers/proxy";
import { DEMO, startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { client, CONSENT_TEXT, logLines } from "./support";

const METRICS_TOKEN = "metrics-token-for-the-lists-test";
/** A list name with a typo: the sandbox's account has "Hope Alerts" and "Volunteers". */
const MISSPELT = "Hope Alrets";

let sandbox: SandboxHandle;
let proxy: ProxyHandle;
let dir: string;
let campaigns: string;
beforeEach(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), "givekit-lists-"));
  campaigns = join(dir, "campaigns.json");
  const file = JSON.parse(readFileSync(DEFAULT_CAMPAIGNS_PATH, "utf8")) as {
    campaigns: { opt_in_lists: string[] }[];
  };
  file.campaigns[1]!.opt_in_lists = ["Hope Alerts", MISSPELT];
  writeFileSync(campaigns, JSON.stringify(file));
  proxy = await startProxy({
    upstreamUrl: sandbox.url,
    env: {
      GIVEKIT_CAMPAIGNS: campaigns,
      GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
      GIVEKIT_RECONCILE_INTERVAL_S: "0",
    },
  });
});
afterEach(async () => {
  await proxy.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function doctor() {
  let out = "";
  const code = await main(
    ["doctor", "--json"],
    {
      HOST: "127.0.0.1",
      PORT: new URL(proxy.url).port,
      UPSTREAM_BASE_URL: sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: proxy.dataDir,
      GIVEKIT_CAMPAIGNS: campaigns,
      GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
    },
    { write: (text: string) => (out += text) },
    { write: () => 0 },
  );
  const report = JSON.parse(out) as {
    checks: { check: string; status: string; text: string; variable?: string; fix?: string }[];
  };
  return { code, lists: report.checks.find((check) => check.check === "opt-in lists")! };
}

const optIn = (list: string) => ({
  mobilenumber: "5550101234",
  list,
  consent: true,
  consent_text: CONSENT_TEXT,
});

describe("an opt-in list the account does not have", () => {
  it("is logged at warn naming the list, counted, and failed by doctor with the fix; nobody is subscribed", async () => {
    // Before any opt-in met it, doctor can only say what it could not check.
    expect((await doctor()).lists).toMatchObject({ status: "note" });

    const api = client(proxy.url);
    const refused = await api.post("/v1/subscriptions", optIn(MISSPELT));
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe("subscription_rejected");
    expect(await sandbox.subscriptions()).toEqual([]);
    const line = logLines(proxy).find(
      (entry) => entry.msg === "request" && entry.path === "/v1/subscriptions",
    );
    expect(line).toMatchObject({ level: 40, listMissing: MISSPELT, upstreamStatus: 404 });
    expect(String(line!.fix)).toContain(`no list "${MISSPELT}"`);

    // A list the account has stays the donor's business: subscribed, at info.
    expect((await api.post("/v1/subscriptions", optIn("Hope Alerts"))).status).toBe(201);

    const { code, lists } = await doctor();
    expect(code).toBe(1);
    expect(lists).toMatchObject({ status: "fail", variable: "GIVEKIT_CAMPAIGNS" });
    expect(lists.text).toContain(`"${MISSPELT}" (1 opt-in(s) refused)`);
    expect(lists.text).not.toContain('"Hope Alerts" (');
    expect(lists.fix).toMatch(/opt_in_lists/);
  });
});
