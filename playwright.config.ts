import { defineConfig } from "@playwright/test";

/** Debian's chromium (`.ci/run` installs it); Playwright's own browsers are not downloaded. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The browser tests: one Chromium, the servers started once per worker (e2e/fixtures.ts).
 * They test the built widget, so `npm run build` comes first.
 */
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
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
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    // Traces on request only: runs of other spec files may share test-results/.
    trace: process.env.PW_TRACE ? "retain-on-failure" : "off",
  },
});
