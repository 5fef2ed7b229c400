// The client's address behind a real reverse proxy (test/proxy/front.ts, which sets the headers
// as the GUIDE's nginx does): by who the peer is, never a hop count. A wrong trust setting is
// warned about once, counted in /metrics and caught by givekit doctor; a forged header is not
// believed; a gala's declines from one guest do not make the next guest prove anything.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../proxy/cli/main";
import { startProxy, type ProxyHandle } from "../helpers/proxy";
import { DEMO, startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { clientFrom, startFront, type Front } from "./front";
import { withCheckDigit } from "../helpers/cards";
import {
  CARDS,
  client,
  collected,
  CVV,
  donate,
  donationBody,
  EXPIRY,
  leaks,
  logLines,
  postCard,
  received,
  staticSecrets,
  tokenize,
} from "./support";

const METRICS_TOKEN = "metrics-token-for-the-address-test";
const BEARER = { Authorization: `Bearer ${METRICS_TOKEN}` };

let sandbox: SandboxHandle;
let proxy: ProxyHandle;
let front: Front | undefined;
const logs: string[] = [];

beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  logs.push(...(proxy?.logs ?? []));
  await front?.close();
  front = undefined;
  await proxy?.close();
  await sandbox.close();
  // oxlint-disable-next-line vitest/no-standalone-expect -- every test's own record, checked as it ends.
  expect(leaks([...received, ...logs], staticSecrets())).toEqual([]);
});

async function start(env: Record<string, string>, frontOptions: Parameters<typeof startFront>[1] = {}) {
  proxy = await startProxy({
    upstreamUrl: sandbox.url,
    // The clients' addresses are under test, not the BIN's breaker: every card here is of one test BIN.
    env: {
      GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
      GIVEKIT_RECONCILE_INTERVAL_S: "0",
      GIVEKIT_BREAKER_BIN_DECLINES: "1000",
      ...env,
    },
  });
  front = await startFront(proxy.url, frontOptions);
  return front;
}

/** A figure of the proxy's /metrics (0 when the series is not there yet). */
async function figure(series: string): Promise<number> {
  const text = (await client(proxy.url).get("/metrics", BEARER)).text;
  const line = text.split("\n").find((row) => row.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const warnings = (fragment: string) =>
  logLines(proxy).filter((line) => line.level === 40 && String(line.msg).includes(fragment));

/** givekit doctor --json against the running proxy, sending a request through `via`. */
async function doctor(via: string | undefined, env: Record<string, string> = {}) {
  let out = "";
  const port = new URL(proxy.url).port;
  const args = via ? ["doctor", "--json", "--front", via] : ["doctor", "--json"];
  const code = await main(
    args,
    {
      HOST: "127.0.0.1",
      PORT: port,
      UPSTREAM_BASE_URL: sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: proxy.dataDir,
      GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
      ...env,
    },
    { write: (text: string) => (out += text) },
    { write: () => 0 },
  );
  const report = JSON.parse(out) as {
    checks: { check: string; status: string; text: string; variable?: string; fix?: string }[];
  };
  return { code, address: report.checks.find((check) => check.check === "client address")! };
}

/**
 * Five declined cards from one guest, as card testing would look: five cards and five donors, since
 * a card's or a donor's own declines refuse them before the upstream and count no more.
 */
async function declineFive(guest: ReturnType<typeof clientFrom>) {
  for (let i = 0; i < 5; i++) {
    const donor = { first_name: "Tess", last_name: "Ter", email: `tess.${i}@example.org` };
    const card = withCheckDigit(`4${String(7_000_000_000 + i * 1000)}`, "0002");
    const reply = await donate(guest, donationBody(await tokenize(guest, card), { donor }));
    expect(reply.status).toBe(402);
  }
}

describe("behind a reverse proxy on this host, with the default trust (loopback)", () => {
  it("each guest is their own client: five declines have that guest's cards challenged, the next guest gives as before", async () => {
    const via = await start({});
    const guest = clientFrom(via.url, "127.0.0.11");
    const next = clientFrom(via.url, "127.0.0.12");
    await declineFive(guest);
    const challenged = await postCard(guest, { card_number: CARDS.ok, cvv: CVV, expiration_date: EXPIRY });
    expect(challenged.status).toBe(403);
    expect(challenged.json.code).toBe("challenge_required");
    const gift = await donate(next, donationBody(await tokenize(next)));
    expect(gift.status).toBe(200);
    expect(await collected(sandbox)).toHaveLength(1);
    const ips = new Set(
      logLines(proxy)
        .filter((line) => line.msg === "request")
        .map((line) => line.ip),
    );
    expect(ips).toEqual(new Set(["127.0.0.11", "127.0.0.12"]));
    expect(await figure('givekit_client_address_problems_total{problem="untrusted_forwarder"}')).toBe(0);
    const { address } = await doctor(via.url);
    expect(address.status).toBe("pass");
    expect(address.text).toContain(`a request through ${via.url} arrived as its client's`);
  });
});

describe("GIVEKIT_TRUST_PROXY=127.0.0.1 (nginx's address), guests on other loopback addresses", () => {
  it("garbage, a thousand hops or a forged prefix in X-Forwarded-For: the guest nginx saw", async () => {
    const via = await start({ GIVEKIT_TRUST_PROXY: "127.0.0.1" });
    const guest = clientFrom(via.url, "127.0.0.14");
    for (const forged of [
      "garbage, <script>, 1.2.3.4.5",
      `${"10.0.0.1, ".repeat(1000)}9.9.9.9`,
      "::ffff:9.9.9.9",
      "2001:db8::1",
    ]) {
      const reply = await guest.get("/v1/campaigns/71777/HOPE", { "X-Forwarded-For": forged });
      expect(reply.status).toBe(200);
    }
    const ips = logLines(proxy)
      .filter((line) => line.msg === "request")
      .map((line) => line.ip);
    expect(ips).toEqual(["127.0.0.14", "127.0.0.14", "127.0.0.14", "127.0.0.14"]);
  });
});

describe("GIVEKIT_TRUST_PROXY=none behind nginx (the wrong setting)", () => {
  it("is warned about once with the fix, counted, caught by doctor; and one guest's declines do reach the next", async () => {
    const via = await start({ GIVEKIT_TRUST_PROXY: "none" });
    const guest = clientFrom(via.url, "127.0.0.11");
    const next = clientFrom(via.url, "127.0.0.12");
    await declineFive(guest);
    // What the setting does: every guest is nginx's address, so the next one is challenged too.
    const asked = await postCard(next, { card_number: CARDS.ok, cvv: CVV, expiration_date: EXPIRY });
    expect(asked.status).toBe(403);
    expect(asked.json.code).toBe("challenge_required");

    const told = warnings("X-Forwarded-For came from 127.0.0.1");
    expect(told).toHaveLength(1);
    expect(told[0]!.msg).toContain("GIVEKIT_TRUST_PROXY=127.0.0.1");
    const requests = logLines(proxy).filter(
      (line) => line.msg === "request" && line.path !== "/metrics",
    ).length;
    expect(await figure('givekit_client_address_problems_total{problem="untrusted_forwarder"}')).toBe(
      requests,
    );

    const { code, address } = await doctor(via.url, { GIVEKIT_TRUST_PROXY: "none" });
    expect(code).toBe(1);
    expect(address).toMatchObject({ status: "fail", variable: "GIVEKIT_TRUST_PROXY" });
    expect(address.fix).toMatch(/GIVEKIT_TRUST_PROXY=loopback/);
    // Without a front to send through, what the proxy counted is enough.
    expect((await doctor(undefined, { GIVEKIT_TRUST_PROXY: "none" })).address.status).toBe("fail");
  });
});

describe("a forged X-Forwarded-For", () => {
  it("from a peer that is not a trusted proxy is not believed: no fresh limit, its own address logged, warned and counted", async () => {
    const via = await start({ GIVEKIT_TRUST_PROXY: "127.0.0.1", GIVEKIT_RATE_SUBSCRIPTIONS: "1" });
    const optIn = {
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      consent: true,
      consent_text: "I agree to receive recurring automated messages.",
    };
    const direct = clientFrom(proxy.url, "127.0.0.9");
    const first = await direct.post("/v1/subscriptions", optIn, {
      headers: { "X-Forwarded-For": "9.9.9.9" },
    });
    expect(first.status).toBe(201);
    const second = await direct.post("/v1/subscriptions", optIn, {
      headers: { "X-Forwarded-For": "9.9.9.10" },
    });
    expect(second.status).toBe(429);
    // Through nginx, a forged entry stays a prefix: the guest is what nginx saw.
    const guest = clientFrom(via.url, "127.0.0.13");
    expect(
      (await guest.post("/v1/subscriptions", optIn, { headers: { "X-Forwarded-For": "9.9.9.9" } })).status,
    ).toBe(201);
    const ips = logLines(proxy)
      .filter((line) => line.msg === "request" && line.path === "/v1/subscriptions")
      .map((line) => line.ip);
    expect(ips).toEqual(["127.0.0.9", "127.0.0.9", "127.0.0.13"]);
    expect(warnings("X-Forwarded-For came from 127.0.0.9")).toHaveLength(1);
    expect(await figure('givekit_client_address_problems_total{problem="untrusted_forwarder"}')).toBe(2);
  });

  it("is believed from anybody when the trust list holds public addresses: doctor fails that list", async () => {
    await start({});
    const { code, address } = await doctor(undefined, { GIVEKIT_TRUST_PROXY: "loopback,8.0.0.0/8" });
    expect(code).toBe(1);
    expect(address).toMatchObject({ status: "fail", variable: "GIVEKIT_TRUST_PROXY" });
    expect(address.text).toMatch(/trusts public addresses/);
  });
});

describe.each([
  ["the default trust (HOST is loopback)", {}],
  ["GIVEKIT_TRUST_PROXY=loopback", { GIVEKIT_TRUST_PROXY: "loopback" }],
] as const)("a trusted reverse proxy that sends no X-Forwarded-For, with %s", (_setting, trustEnv) => {
  it("is warned about once with the nginx line to add, counted and caught by doctor --front", async () => {
    const via = await start(trustEnv, { forwardedFor: false });
    const guest = clientFrom(via.url, "127.0.0.11");
    for (let i = 0; i < 3; i++) expect((await guest.get("/v1/campaigns/71777/HOPE")).status).toBe(200);
    // What the setting does: the guest is logged as nginx's address.
    const ips = logLines(proxy)
      .filter((line) => line.msg === "request" && line.path === "/v1/campaigns/71777/HOPE")
      .map((line) => line.ip);
    expect(ips).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
    const told = warnings("without X-Forwarded-For");
    expect(told).toHaveLength(1);
    expect(told[0]!.msg).toContain("proxy_set_header X-Forwarded-For");
    expect(await figure('givekit_client_address_problems_total{problem="missing_forwarded_for"}')).toBe(3);
    const { code, address } = await doctor(via.url, trustEnv);
    expect(code).toBe(1);
    expect(address).toMatchObject({ status: "fail", variable: "GIVEKIT_TRUST_PROXY" });
    expect(address.text).toMatch(/without X-Forwarded-For/);
    expect(address.text).not.toMatch(/arrived as its client's/);
    expect(address.fix).toMatch(/proxy_set_header X-Forwarded-For/);
  });
});
