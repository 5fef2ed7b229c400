// Crowds give, bots don't: the five scenarios of test/helpers/crowds.ts against the proxy's
// defaults (behind one trusted reverse proxy, as a deployment is), one proxy on SQLite and two
// on one PostgreSQL, without a challenge and with Turnstile (a fake verifier that people pass).
// Money is counted in each scenario's own sandbox. The scenarios run in real time (a gala's
// guests spend 20 to 90 s in the form): about 3 minutes a store, in crowds.test.ts; the proxies run
// in processes of their own, as a host runs them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEFENCE_SCENARIO_NAMES,
  SOLVING_SCENARIO_NAMES,
  describeFigures,
  runAllScenarios,
  startCrowdStack,
  type ProxyLauncher,
} from "../../helpers/crowds";
import { testDatabase } from "../../helpers/postgres";
import { startFakeTurnstileProgram } from "../../helpers/sandbox-process";
import { spawnProxy } from "../../helpers/proxy-process";

/** Each proxy a program of its own, as a host runs them: the crowds' clients do not slow its event loop. */
export const asProgram: ProxyLauncher = async (upstreamUrl, env) => {
  const dataDir = mkdtempSync(join(tmpdir(), "givekit-crowd-"));
  const proxy = await spawnProxy({ ...env, UPSTREAM_BASE_URL: upstreamUrl, GIVEKIT_DATA_DIR: dataDir });
  return {
    url: proxy.url,
    logs: () => proxy.output().stdout.split("\n"),
    async close() {
      await proxy.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** The crowd tests of one store, without a challenge and with Turnstile side by side. */
export function describeCrowds(store: "sqlite" | "postgres"): void {
  let turnstile: Awaited<ReturnType<typeof startFakeTurnstileProgram>>;
  beforeAll(async () => {
    turnstile = await startFakeTurnstileProgram();
  });
  afterAll(() => turnstile.close());

  /** A stack with the defaults: no Turnstile, givekit's own challenge. */
  const defaultStack = async () =>
    startCrowdStack({
      launch: asProgram,
      ...(store === "postgres" ? { databaseUrl: await testDatabase() } : {}),
    });

  describe.concurrent(`crowds give, bots don't, on ${store}`, () => {
    it.each([false, true])(
      "(challenge: %s) a gala and a giving day all charged; testers and a burst held",
      async (challenge) => {
        const label = `${store}${challenge ? " + Turnstile" : ""}`;
        // Two set-ups share the machine: each sends its testers' bursts in a moment of its own.
        const slot = challenge ? 1 : 0;
        const results = await runAllScenarios(
          async () =>
            startCrowdStack({
              launch: asProgram,
              ...(store === "postgres" ? { databaseUrl: await testDatabase() } : {}),
              ...(challenge ? { challenge: turnstile.proxyEnv } : {}),
            }),
          { "bot-spread": 2 + slot * 25, burst: 12 + slot * 25 },
        );
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

  // After the crowds above, not beside them: a store's proxies are many programs on two cores.
  // Up to 7 minutes: people behind an open circuit breaker wait through it (3 minutes at most).
  describe(`testers and a griefer against the defaults, on ${store}`, () => {
    it("(defaults) stockpiled tokens, a distributed tester and a griefer are held; the room still gives", async () => {
      // After the crowds above have had the machine to themselves for a while.
      const names = [...DEFENCE_SCENARIO_NAMES, ...SOLVING_SCENARIO_NAMES];
      const results = await runAllScenarios(
        defaultStack,
        { stockpile: 5, distributed: 10, "stockpile-solving": 15, "distributed-solving": 20 },
        names,
      );
      for (const figures of results)
        console.warn(`crowd figures: ${describeFigures(`${store} defaults`, figures)}`);
      const [stockpile, distributed, griefer, tester, stockpileSolving, distributedSolving] = results;
      // Bots that solve no challenge.
      expect(stockpile!.botDonations).toBeLessThanOrEqual(30);
      expect(distributed!.botTokenizations).toBeLessThanOrEqual(50);
      expect(griefer!.charged).toBeGreaterThanOrEqual(58);
      expect(griefer!.elsewhere).toEqual({ goodCards: 20, charged: 20 });
      expect(tester).toMatchObject({ goodCards: 60, charged: 60 });
      expect(tester!.botDonations).toBeLessThanOrEqual(10);
      // Testers that pay every challenge get through at a price: each charge cost them CPU.
      for (const solving of [stockpileSolving!, distributedSolving!]) {
        const reached = solving.botDonations + (solving.botLiveCharged ?? 0);
        expect(reached === 0 || solving.botCpuSPerCharge! > 0).toBe(true);
      }
    }, 420_000);
  });
}
