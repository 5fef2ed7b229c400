/**
 * The challenge part of `npm run bench`: what givekit's own challenge costs a donor on a phone.
 * A real Chromium with its CPU slowed 4x (a mid-range phone), a proxy whose campaign a tester's
 * card put in defence mode, and BENCH_CHALLENGE_RUNS donors (7) who each give once through the
 * card frame, which solves the proof of work; the time the frame spent solving is read in the
 * frame (e2e/challenge.ts), and its median and p95 printed, beside the work asked
 * (GIVEKIT_CHALLENGE_WORK). Each donor's one charge is checked in the sandbox's report.
 *
 * Runs alone: `npx tsx bench/challenge.ts` (after `npm run build`).
 */
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../e2e/chromium";
import { TRIP_ON_FIRST, giveThroughChallenge, tripDefence } from "../e2e/challenge";
import { withServers } from "../e2e/fixtures";
import { CONFIG_DEFAULTS } from "../proxy/config";

const RUNS = Number(process.env.BENCH_CHALLENGE_RUNS || 7);
const CPU_RATE = 4;

const quantile = (values: number[], q: number) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};

/** Prints the solve times and resolves with their median and p95 (ms). */
export async function challengeBench(
  say: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
) {
  const { path } = await findChromium();
  const browser = await chromium.launch({
    executablePath: path,
    args: CHROMIUM_ARGS,
  });
  const times: number[] = [];
  try {
    await withServers(TRIP_ON_FIRST, async (servers) => {
      await tripDefence(servers.proxy.url);
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          const lastName = `Bench${run}${Date.now().toString(36)}`;
          times.push(await giveThroughChallenge(page, servers, lastName, CPU_RATE));
          const mine = (await servers.sandbox.transactions({ keyword: "HOPE" })).filter(
            (row) => row.last_name === lastName && row.status === "collected",
          );
          if (mine.length !== 1) throw new Error(`donor ${run} was charged ${mine.length} times`);
        } finally {
          await context.close();
        }
      }
    });
  } finally {
    await browser.close();
  }
  const median = quantile(times, 0.5);
  const p95 = quantile(times, 0.95);
  say(
    `\nChallenge in the card frame (Chromium, CPU ${CPU_RATE}x slower, work ${CONFIG_DEFAULTS.GIVEKIT_CHALLENGE_WORK} hashes at level 0, ${RUNS} donors, each charged once):` +
      `\n  solved in median ${Math.round(median)} ms, p95 ${Math.round(p95)} ms (each: ${times.map((t) => Math.round(t)).join(", ")} ms)`,
  );
  return { challenge_solve_ms_median: median, challenge_solve_ms_p95: p95 };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await challengeBench();
