/**
 * Starts a thread on one of the proxy's own modules: its TypeScript source in a checkout (under
 * tsx or Vitest, tsx registered in the thread first) or its build in a production install
 * (dist/server/<name>.js, an entry of vite.server.config.ts, plain node).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

// The thread's first script: CommonJS run by node itself, so it needs no loader to start.
const BOOT = `
const { workerData } = require("node:worker_threads");
(workerData.tsx ? import(workerData.tsx).then((tsx) => tsx.register()) : Promise.resolve()).then(() =>
  import(workerData.entry),
);
`;

/**
 * Where tsx's ESM API is (its `register()` puts its hooks in the calling thread): the `import`
 * condition of its package's `./esm/api`, which `require.resolve` would not pick.
 */
function tsxApi(callerUrl: string): string {
  const require = createRequire(callerUrl);
  const manifest = require.resolve("tsx/package.json");
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifest), exports["./esm/api"]!.import.default)).href;
}

/**
 * @param callerUrl the `import.meta.url` of a module beside the thread's (the build may put the
 *   caller in dist/server/chunks/, one folder below the entry)
 * @example
 * const worker = startThread(import.meta.url, "progress-worker");
 */
export function startThread(callerUrl: string, name: string): Worker {
  const dir = dirname(fileURLToPath(callerUrl));
  const fromSource = callerUrl.endsWith(".ts");
  const entry = fromSource
    ? join(dir, `${name}.ts`)
    : [dir, dirname(dir)].map((at) => join(at, `${name}.js`)).find((path) => existsSync(path));
  if (!entry) throw new Error(`the build has no ${name}.js near ${dir}: run npm run build`);
  const tsx = fromSource ? tsxApi(callerUrl) : undefined;
  return new Worker(BOOT, {
    eval: true,
    // The parent's --import tsx (tests' programs) is not needed: the boot registers it.
    execArgv: [],
    workerData: { entry: pathToFileURL(entry).href, tsx },
  });
}
