import { preact } from "@preact/preset-vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/{contract,sandbox,proxy,scripts,e2e,bench}/**/*.test.ts"],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [preact()],
        test: {
          name: "dom",
          environment: "happy-dom",
          include: ["test/widget/**/*.test.{ts,tsx}"],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
