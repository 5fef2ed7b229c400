#!/usr/bin/env node
// `npx givekit …`: the proxy's command line. A production install runs the compiled JavaScript
// (dist/server/givekit.js, made by `npm run build`) with plain node. A development checkout
// whose sources changed since that build (or that has none) runs the TypeScript source through
// tsx, a dev dependency, so the command never runs code older than the checkout.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const built = join(root, "dist/server/givekit.js");
/** What the build compiles (vite.server.config.ts): the proxy and everything it imports. */
const SOURCE_DIRS = ["proxy", "contract", "http", "sqlite"];

function tsxInstalled() {
  return existsSync(join(root, "node_modules/tsx/package.json"));
}

/** True when a source file changed after the build was made. */
function sourcesNewerThan(path) {
  const builtAt = statSync(path).mtimeMs;
  for (const dir of SOURCE_DIRS) {
    const full = join(root, dir);
    if (!existsSync(full)) continue;
    for (const name of readdirSync(full, { recursive: true })) {
      if (String(name).endsWith(".ts") && statSync(join(full, String(name))).mtimeMs > builtAt) return true;
    }
  }
  return false;
}

function useSource() {
  if (!tsxInstalled()) return false;
  if (!existsSync(built)) return true;
  return process.env.NODE_ENV !== "production" && sourcesNewerThan(built);
}

let main;
if (useSource()) {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../proxy/cli/main.ts"));
} else if (existsSync(built)) {
  ({ main } = await import(pathToFileURL(built).href));
} else {
  process.stderr.write("givekit: not built: run `npm run build` (dist/server/givekit.js is missing)\n");
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2), process.env, process.stdout, process.stderr);
