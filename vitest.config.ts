import { preact } from "@preact/preset-vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
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
          // One PostgreSQL server for the run (or GIVEKIT_TEST_DATABASE_URL's); each file makes its database.
          globalSetup: ["test/helpers/postgres-global.ts"],
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
