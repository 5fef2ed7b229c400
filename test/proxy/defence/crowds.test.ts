// Crowds give, bots don't: the five scenarios of test/helpers/crowds.ts against the proxy's
// defaults (behind one trusted reverse proxy, as a deployment is), one proxy on SQLite and two
// on one PostgreSQL, without a challenge and with Turnstile (a fake verifier that people pass).
// Money is counted in each scenario's own sandbox. The scenarios run in real time (a gala's
// guests spend 20 to 90 s in the form), the four set-ups side by side: about 90 s in all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTurnstile, type FakeTurnstile } from "../../../e2e/turnstile-fake";
import { describeFigures, runAllScenarios, startCrowdStack } from "../../helpers/crowds";
import { testDatabase } from "../../helpers/postgres";

let turnstile: FakeTurnstile;
beforeAll(async () => {
  turnstile = await startFakeTurnstile();
});
afterAll(() => turnstile.close());

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
      const results = await runAllScenarios(async () =>
        startCrowdStack({
          ...(store === "postgres" ? { databaseUrl: await testDatabase() } : {}),
          ...(challenge ? { challenge: turnstile.proxyEnv } : {}),
        }),
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
