// Testers that solve every challenge and invent a donor per card, against the circuit breakers
// (proxy/defence/breaker.ts) with the proxy's defaults: one proxy on SQLite, two on one
// PostgreSQL, each a program of its own. What reached the upstream is counted in each scenario's
// own sandbox (declined charges, live cards charged, tokenizations it was asked). Real time,
// the shapes: the paced tester takes its 2 minutes, the others end when their cards do.
import { describe, expect, it } from "vitest";
import {
  BREAKER_SCENARIO_NAMES,
  describeFigures,
  runAllScenarios,
  startCrowdStack,
} from "../../helpers/crowds";
import { testDatabase } from "../../helpers/postgres";
import { asProgram } from "./crowds";

/** The breaker scenarios of one store, side by side, each against a stack of its own. */
export function describeBreakerCrowds(store: "sqlite" | "postgres"): void {
  describe(`circuit breakers hold testers that solve, on ${store}`, () => {
    it("bounds the cards that reach the upstream: spread, paced, distributed, stockpiled", async () => {
      const results = await runAllScenarios(
        async () =>
          startCrowdStack({
            launch: asProgram,
            ...(store === "postgres" ? { databaseUrl: await testDatabase() } : {}),
          }),
        {},
        BREAKER_SCENARIO_NAMES,
      );
      for (const figures of results) console.warn(`breaker figures: ${describeFigures(store, figures)}`);
      const [spread, paced, distributed, stockpile] = results;
      // Over 100 addresses, 300 cards, 90 % dead.
      expect(spread!.botDonations).toBeLessThanOrEqual(30);
      expect(spread!.botTokenizations).toBeLessThanOrEqual(30);
      // One address, 60 dead cards in 2 minutes: declined charges and tokenizations.
      expect(paced!.botTokenizations).toBeLessThanOrEqual(10);
      expect(paced!.botDonations).toBeLessThanOrEqual(10);
      // 1,000 attempts over 100 addresses, 20 % live.
      expect(distributed!.botTokenizations).toBeLessThanOrEqual(50);
      expect(distributed!.botDonations + distributed!.botLiveCharged!).toBeLessThanOrEqual(50);
      // The stockpile: every card tokenized first, charged later.
      expect(stockpile!.botTokenizations).toBeLessThanOrEqual(30);
      expect(stockpile!.botDonations + stockpile!.botLiveCharged!).toBeLessThanOrEqual(30);
    }, 300_000);
  });
}
