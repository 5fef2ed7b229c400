// Crowds give, bots don't: the five scenarios of test/helpers/crowds.ts against the proxy's
// defaults (behind one trusted reverse proxy, as a deployment is), one proxy on SQLite and two
// on one PostgreSQL, without a challenge and with Turnstile (a fake verifier that people pass).
// Money is counted in each scenario's own sandbox. The scenarios run in real time (a gala's
// guests spend 20 to 90 s in the form), the four set-ups side by side: about 90 s in all.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTurnstile, type FakeTurnstile } from "../../../e2e/turnstile-fake";
import { describeFigures, runScenario, type CrowdStack, type ScenarioName } from "../../helpers/crowds";
import { testDatabase } from "../../helpers/postgres";
import { startProxy, type ProxyHandle } from "../../helpers/proxy";
import { startSandbox, type SandboxHandle } from "../../helpers/sandbox";

/** The test helper's proxies post at machine speed (GIVEKIT_MIN_FORM_MS 0): these run with the default. */
const DEFAULTS = { GIVEKIT_MIN_FORM_MS: "1500", GIVEKIT_TRUST_PROXY: "1", LOG_LEVEL: "warn" };

let turnstile: FakeTurnstile;
const opened: { sandbox: SandboxHandle; proxies: ProxyHandle[] }[] = [];
beforeAll(async () => {
  turnstile = await startFakeTurnstile();
});
afterAll(async () => {
  for (const { sandbox, proxies } of opened) {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await sandbox.close();
  }
  await turnstile.close();
});

async function stack(store: "sqlite" | "postgres", challenge: boolean): Promise<CrowdStack> {
  const sandbox = await startSandbox();
  const env = { ...DEFAULTS, ...(challenge ? turnstile.proxyEnv : {}) };
  const proxies: ProxyHandle[] = [];
  if (store === "sqlite") proxies.push(await startProxy({ upstreamUrl: sandbox.url, env }));
  else {
    const shared = {
      ...env,
      DATABASE_URL: await testDatabase(),
      GIVEKIT_JOURNAL_SECRET: randomBytes(32).toString("hex"),
    };
    for (let i = 0; i < 2; i++) proxies.push(await startProxy({ upstreamUrl: sandbox.url, env: shared }));
  }
  opened.push({ sandbox, proxies });
  return {
    proxyUrls: proxies.map((proxy) => proxy.url),
    transactions: () => sandbox.transactions(),
    requestPaths: async () => (await sandbox.requests()).map((request) => request.path),
    ...(challenge ? { passChallenge: () => `good-${randomBytes(8).toString("hex")}` } : {}),
  };
}

const SET_UPS = [
  ["sqlite", false],
  ["postgres", false],
  ["sqlite", true],
  ["postgres", true],
] as const;

describe.concurrent("crowds give, bots don't", () => {
  it.each(SET_UPS)(
    "on %s (challenge: %s): a gala and a giving day all charged; testers and a burst held",
    async (store, challenge) => {
      const label = `${store}${challenge ? " + Turnstile" : ""}`;
      const names: ScenarioName[] = ["gala", "giving-day", "bot-spread", "bot-paced", "burst"];
      const stacks = await Promise.all(names.map(() => stack(store, challenge)));
      const results = await Promise.all(names.map((name, i) => runScenario(name, stacks[i]!)));
      for (const figures of results) console.warn(`crowd figures: ${describeFigures(label, figures)}`);
      const [gala, givingDay, botSpread, botPaced, burst] = results;
      expect(gala).toMatchObject({ goodCards: 60, charged: 60, refused: {} });
      expect(givingDay).toMatchObject({ goodCards: 228, charged: 228, refused: {} });
      expect(botSpread!.botDonations).toBeLessThanOrEqual(30);
      expect(botPaced!.botDonations).toBeLessThanOrEqual(10);
      expect(burst!.botDonations).toBeLessThanOrEqual(10);
    },
    180_000,
  );
});
