import { defineConfig } from "vite";

/**
 * `npm run build`'s second step: the proxy and the `givekit` command compiled to plain
 * JavaScript for Node (Vite's SSR build), so a production install runs them with `node` alone,
 * no tsx and no dev dependency. Dependencies stay imports (resolved from node_modules at run
 * time), so each must be in package.json's `dependencies`.
 *
 *   proxy/cli/main.ts → dist/server/givekit.js  what bin/givekit.js runs (serve, migrate, doctor, …)
 *   proxy/server.ts   → dist/server/proxy.js    the proxy alone: `node dist/server/proxy.js`
 *   proxy/campaign/progress-worker.ts → dist/server/progress-worker.js
 *                                        the thread that reads progress reports (proxy/worker-thread.ts)
 */
export default defineConfig({
  publicDir: false,
  logLevel: "warn",
  build: {
    ssr: true,
    outDir: "dist/server",
    emptyOutDir: true,
    target: "node20",
    minify: false,
    sourcemap: true,
    rolldownOptions: {
      input: {
        givekit: "proxy/cli/main.ts",
        proxy: "proxy/server.ts",
        "progress-worker": "proxy/campaign/progress-worker.ts",
      },
      output: { format: "es", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
    },
  },
});
