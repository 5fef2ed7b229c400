import { defineConfig } from "@playwright/test";

import { CHROMIUM_ARGS } from "./e2e/chromium";
import { RESOLVED_CHROMIUM_VARIABLE } from "./e2e/global-setup";

/** Set by the global setup, before any worker starts (e2e/chromium.ts says which browser). */
const CHROMIUM = process.env[RESOLVED_CHROMIUM_VARIABLE];

/**
 * The browser tests: one Chromium, the servers started once per worker (e2e/fixtures.ts).
 * They test the built widget, so `npm run build` comes first.
 */
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
    // Traces on request only: runs of other spec files may share test-results/.
    trace: process.env.PW_TRACE ? "retain-on-failure" : "off",
  },
});
