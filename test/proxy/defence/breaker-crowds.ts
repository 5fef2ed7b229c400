// Testers that solve every challenge and invent a donor per card, against the circuit breakers
// (proxy/defence/breaker.ts) with the proxy's defaults: one proxy on SQLite, two on one
// PostgreSQL, each a program of its own. What reached the upstream is counted in each scenario's
// own sandbox (declined charges, live cards charged, tokenizations it was asked). Real time,
// the issue's shapes: the paced tester takes its 2 minutes, the others end when their cards do.
// With Turnstile configured (a stand-in that no bot passes), a spread tester's cards are held too.
// Beside a gala and a giving day, testers that solve are held while the crowd gives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AFTER_SCENARIO_NAMES,
  BESIDE_SCENARIO_NAMES,
  BREAKER_SCENARIO_NAMES,
  describeFigures,
  REPEATER_SCENARIO_NAMES,
  runAllScenarios,
  runScenario,
  type ScenarioFigures,
  startCrowdStack,
} from "../../helpers/crowds";
import { testDatabase } from "../../helpers/postgres";
import { startFakeTurnstileProgram } from "../../helpers/sandbox-process";
import { asProgram } from "./crowds";

/**
 * The breakers' window in the tests that lead a crowd with a tester: 10 minutes shortened to 90 s,
 * the breakers' open period with it (30 s to 5 s); the tester works the whole of it before the
 * crowd's first arrival.
 */
const LEAD_WINDOW_S = 90;

/** A stack for a tester that leads the crowd: the breakers' window LEAD_WINDOW_S, every part a program. */
const leadStack = async (store: "sqlite" | "postgres", challenge?: Record<string, string>) =>
  startCrowdStack({
    launch: asProgram,
    sandboxProgram: true,
    breakerWindowS: LEAD_WINDOW_S,
    ...(store === "postgres" ? { databaseUrl: await testDatabase() } : {}),
    ...(challenge ? { challenge } : {}),
  });

/**
 * Testers at work for the breakers' whole window before a crowd begins and through it (issue 51),
 * on one store (one proxy on SQLite, or two sharing PostgreSQL): every scenario, the repeating
 * tester's two with them, and every one with a tester again with Turnstile, eleven side by side
 * (each stack's sandbox a program of its own, so the crowds' clients in this process never stand
 * in for a slow upstream).
 */
export function describeTesterFirst(store: "sqlite" | "postgres"): void {
  describe(`testers at work for the breakers' window before a crowd, on ${store}`, () => {
    let turnstile: Awaited<ReturnType<typeof startFakeTurnstileProgram>>;
    beforeAll(async () => {
      turnstile = await startFakeTurnstileProgram();
    });
    afterAll(() => turnstile.close());

    it("a giving day and a gala that begin after a tester has worked the breakers' window give as if it were not there (and with Turnstile); a popular BIN's crowd never waits", async () => {
      // With the human check, every scenario with a tester again (the popular BIN has none).
      const withHuman = [...AFTER_SCENARIO_NAMES, ...REPEATER_SCENARIO_NAMES].filter(
        (name) => name !== "popular-bin",
      );
      const [results, human] = await Promise.all([
        runAllScenarios(() => leadStack(store), {}, [...AFTER_SCENARIO_NAMES, ...REPEATER_SCENARIO_NAMES], 2),
        runAllScenarios(() => leadStack(store, turnstile.proxyEnv), {}, withHuman, 2),
      ]);
      for (const figures of results) console.warn(`tester-first figures: ${describeFigures(store, figures)}`);
      for (const figures of human)
        console.warn(`tester-first figures: ${describeFigures(`${store} + Turnstile`, figures)}`);
      const [solver, botnet, gala, popular, dayAfterRepeater, galaAfterRepeater] = results;
      // What each person paid (time added by open breakers) and what each tester got to the network.
      for (const day of [solver!, botnet!, dayAfterRepeater!])
        within(store, day, () => {
          expect(day.charged).toBeGreaterThanOrEqual(220);
          expect(day.waitS!.median).toBeLessThanOrEqual(5);
          expect(day.waitS!.p95).toBeLessThanOrEqual(30);
          expect(day.botDonations + day.botLiveCharged!).toBeLessThanOrEqual(50);
          expect(day.botTokenizations).toBeLessThanOrEqual(50);
        });
      within(store, gala!, () => expectGalaWithin(gala!));
      within(store, popular!, () => expectPopularBinUnheld(popular!));
      // The repeating tester from the venue's one address: the gala's bounds, and the 10 cards a
      // repeater on one address is held to.
      within(store, galaAfterRepeater!, () => {
        expectGalaWithin(galaAfterRepeater!);
        expect(galaAfterRepeater!.botDonations + galaAfterRepeater!.botLiveCharged!).toBeLessThanOrEqual(10);
        expect(galaAfterRepeater!.botTokenizations).toBeLessThanOrEqual(10);
      });
      // With the human check, the people pass it instead of waiting, and no tester can.
      for (const [i, figures] of human.entries())
        within(`${store} + Turnstile`, figures, () => {
          expect(figures.charged).toBeGreaterThanOrEqual(withHuman[i]!.startsWith("gala") ? 58 : 220);
          expect(figures.waitS!.p95).toBeLessThanOrEqual(10);
          expect(figures.botDonations + figures.botLiveCharged!).toBeLessThanOrEqual(10);
          expect(figures.botTokenizations).toBeLessThanOrEqual(10);
        });
    }, 600_000);
  });
}

/**
 * A scenario's expectations; a failure carries the scenario's whole figures line, since a CI log
 * may keep only its end and not the lines printed before.
 */
function within(label: string, figures: ScenarioFigures, expectations: () => void): void {
  try {
    expectations();
  } catch (error) {
    if (error instanceof Error) error.message += `\n  ${describeFigures(label, figures)}`;
    throw error;
  }
}

/** A gala after a tester: 58 of 60 charged, p95 added wait 30 s, the tester 15 cards at most. */
function expectGalaWithin(gala: ScenarioFigures): void {
  expect(gala.charged).toBeGreaterThanOrEqual(58);
  expect(gala.waitS!.p95).toBeLessThanOrEqual(30);
  expect(gala.botDonations + gala.botLiveCharged!).toBeLessThanOrEqual(15);
  expect(gala.botTokenizations).toBeLessThanOrEqual(15);
}

/** 30 donors of one popular BIN, 2 declined, no tester: every good card charged, nobody waits. */
function expectPopularBinUnheld(popular: ScenarioFigures): void {
  expect(popular).toMatchObject({ goodCards: 28, charged: 28, refused: {}, waitS: { median: 0, p95: 0 } });
}

/** The breaker scenarios of one store, side by side, each against a stack of its own. */
export function describeBreakerCrowds(store: "sqlite" | "postgres"): void {
  // Both tests at once: the Turnstile tester ends in seconds, while the other's paced tester takes 2 minutes.
  describe.concurrent(`circuit breakers hold testers that solve, on ${store}`, () => {
    let turnstile: Awaited<ReturnType<typeof startFakeTurnstileProgram>>;
    beforeAll(async () => {
      turnstile = await startFakeTurnstileProgram();
    });
    afterAll(() => turnstile.close());

    it("with Turnstile configured (a stand-in no bot passes), a spread tester's cards reaching the upstream are at most 5", async () => {
      const stack = await startCrowdStack({
        launch: asProgram,
        ...(store === "postgres" ? { databaseUrl: await testDatabase() } : {}),
        challenge: turnstile.proxyEnv,
      });
      try {
        const figures = await runScenario("spread-solving", stack);
        console.warn(`breaker figures: ${describeFigures(`${store} + Turnstile`, figures)}`);
        // Issue 42's bound, on charges and on tokenizations: each card is reserved against the
        // breakers' budgets as it is admitted (4 lanes cannot all pass one remaining slot), and the
        // BIN's breaker, counting its cards in flight as declines to come, puts every campaign in
        // defence mode (Turnstile) when it opens.
        expect(figures.botDonations + figures.botLiveCharged!).toBeLessThanOrEqual(5);
        expect(figures.botTokenizations).toBeLessThanOrEqual(5);
      } finally {
        await stack.close();
      }
    }, 300_000);

    it("bounds the cards that reach the upstream: spread, paced, distributed, stockpiled; beside a gala and a giving day the crowd gives", async () => {
      // Six stacks side by side, two starting at a time, each scenario as soon as its stack is
      // up: the two crowds beside testers share the paced tester's 2 minutes.
      const results = await runAllScenarios(
        async () =>
          startCrowdStack({
            launch: asProgram,
            ...(store === "postgres" ? { databaseUrl: await testDatabase() } : {}),
          }),
        {},
        [...BREAKER_SCENARIO_NAMES, ...BESIDE_SCENARIO_NAMES],
        2,
      );
      for (const figures of results) console.warn(`breaker figures: ${describeFigures(store, figures)}`);
      const [spread, paced, distributed, stockpile, gala, givingDay] = results;
      // Over 100 addresses, 300 cards, 90 % dead.
      within(store, spread!, () => {
        expect(spread!.botDonations).toBeLessThanOrEqual(30);
        expect(spread!.botTokenizations).toBeLessThanOrEqual(30);
      });
      // One address, 60 dead cards in 2 minutes: declined charges and tokenizations.
      within(store, paced!, () => {
        expect(paced!.botTokenizations).toBeLessThanOrEqual(10);
        expect(paced!.botDonations).toBeLessThanOrEqual(10);
      });
      // 1,000 attempts over 100 addresses, 20 % live.
      within(store, distributed!, () => {
        expect(distributed!.botTokenizations).toBeLessThanOrEqual(50);
        expect(distributed!.botDonations + distributed!.botLiveCharged!).toBeLessThanOrEqual(50);
      });
      // The stockpile: every card tokenized first, charged later.
      within(store, stockpile!, () => {
        expect(stockpile!.botTokenizations).toBeLessThanOrEqual(30);
        expect(stockpile!.botDonations + stockpile!.botLiveCharged!).toBeLessThanOrEqual(30);
      });
      // On the venue's address, 40 dead cards while its 60 guests give: counted in the sandbox's
      // report (guests charged once each; the tester's charges and tokenizations).
      within(store, gala!, () => {
        expect(gala!.charged).toBeGreaterThanOrEqual(58);
        expect(gala!.botDonations + gala!.botLiveCharged!).toBeLessThanOrEqual(15);
        expect(gala!.botTokenizations).toBeLessThanOrEqual(15);
      });
      // Over 100 addresses beside a giving day's 228 donors.
      within(store, givingDay!, () => {
        expect(givingDay!.charged).toBeGreaterThanOrEqual(220);
        expect(givingDay!.botDonations + givingDay!.botLiveCharged!).toBeLessThanOrEqual(50);
        expect(givingDay!.botTokenizations).toBeLessThanOrEqual(50);
      });
    }, 300_000);
  });
}
