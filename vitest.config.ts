import { preact } from "@preact/preset-vite";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The tests that time the proxy's event loop against issue 43's bounds (health within 100 ms,
 * loop delay p99 < 50 ms, max < 100 ms): run alone, as an idle process on 2 busy cores already
 * sees 50-200 ms stalls (README, "At scale").
 */
const ALONE = ["test/proxy/progress-cold-read.test.ts", "test/proxy/reconcile/year-of-attempts.test.ts"];

/**
 * The crowds and the circuit breakers, a file per store (about 8 minutes each, most of it real
 * time: a gala's guests spend 20 to 90 s in the form). One at a time, alone after the rest: beside
 * another test file's CPU their in-process sandbox and clients answered late, and a gala beside a
 * tester lost guests to network errors (40 to 56 of 60 charged, against 60 of 60 alone). The two
 * stores side by side (a load of 4 to 5) lost a Turnstile giving day 64 to 85 of 228 people to its
 * fake verifier answering late and a giving day's p95 wait rose from 2 s to 34-53 s, even with each
 * file's seven-stack part at the other's lighter end.
 */
const CROWDS = ["test/proxy/defence/crowds-sqlite.test.ts", "test/proxy/defence/crowds-postgres.test.ts"];

export default defineConfig({
  test: {
    // Two files at once on two cores (Vitest's default is one fewer than the cores).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          // Unit tests sit beside their code; integration tests (servers, processes) under test/.
          include: [
            "{contract,http,sqlite,proxy,sandbox,bench,e2e,scripts}/**/*.test.ts",
            "test/**/*.test.ts",
          ],
          exclude: [...configDefaults.exclude, ...ALONE, ...CROWDS],
          // One PostgreSQL server for the run (or GIVEKIT_TEST_DATABASE_URL's); each file makes its database.
          globalSetup: ["test/helpers/postgres-global.ts"],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: "crowds",
          environment: "node",
          include: CROWDS,
          globalSetup: ["test/helpers/postgres-global.ts"],
          sequence: { groupOrder: 1 },
          maxWorkers: 1,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: "alone",
          environment: "node",
          include: ALONE,
          globalSetup: ["test/helpers/postgres-global.ts"],
          // After the other projects, one file at a time: what they time is the proxy's own event
          // loop, which another test file's processes on the same cores would stall instead.
          sequence: { groupOrder: 2 },
          fileParallelism: false,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [preact()],
        test: {
          name: "dom",
          environment: "happy-dom",
          include: ["widget/**/*.test.{ts,tsx}"],
          setupFiles: ["test/helpers/messages.ts"],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
