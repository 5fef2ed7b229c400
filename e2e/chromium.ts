/**
 * Which Chromium the browser tests drive. One resolver for every browser test, so a fresh
 * machine with nothing but Node and the npm registry still has a browser:
 *
 * 1. `GIVEKIT_CHROMIUM`: a path to a Chromium or Chrome, or the name of one source below;
 * 2. `playwright`: Playwright's own Chromium, where `npx playwright install` has put one;
 * 3. `system`: a Chromium or Chrome on the PATH or in its usual place;
 * 4. `npm`: the Chromium inside the `@sparticuz/chromium` devDependency (Linux x64), unpacked
 *    into the temporary folder on first use.
 *
 * @example
 * const { path, source } = await findChromium();
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export const CHROMIUM_SOURCES = ["playwright", "system", "npm"] as const;

/** How every test and bench starts Chromium here: headless, with nothing that reaches the network. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
export type ChromiumSource = (typeof CHROMIUM_SOURCES)[number];

export interface FoundChromium {
  path: string;
  /** Where it came from: the variable, or the source that had one. */
  source: "GIVEKIT_CHROMIUM" | ChromiumSource;
}

/** What the resolver may look at; tests pass fakes. */
export interface ChromiumProbe {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  isExecutable(path: string): boolean;
  /** Where Playwright would keep its own Chromium (it may not be there). */
  playwrightPath(): Promise<string | undefined>;
  /** The npm-registry Chromium's executable, unpacked; undefined when the package is absent. */
  npmPath(): Promise<string | undefined>;
}

const SYSTEM_NAMES = ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome", "chrome"];
const SYSTEM_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  darwin: [
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  ],
  win32: [
    "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe",
  ],
};

function systemPath(probe: ChromiumProbe): string | undefined {
  const dirs = (probe.env.PATH ?? "").split(delimiter).filter(Boolean);
  const onPath = dirs.flatMap((dir) => SYSTEM_NAMES.map((name) => join(dir, name)));
  return [...onPath, ...(SYSTEM_PATHS[probe.platform] ?? [])].find((path) => probe.isExecutable(path));
}

async function fromSource(source: ChromiumSource, probe: ChromiumProbe): Promise<string | undefined> {
  switch (source) {
    case "playwright": {
      const path = await probe.playwrightPath();
      return path && probe.isExecutable(path) ? path : undefined;
    }
    case "system":
      return systemPath(probe);
    case "npm":
      return probe.npmPath();
  }
}

/** Finds a Chromium by the order above, or throws saying what was tried and how to add one. */
export async function resolveChromium(probe: ChromiumProbe): Promise<FoundChromium> {
  const named = probe.env.GIVEKIT_CHROMIUM?.trim();
  if (named) {
    if ((CHROMIUM_SOURCES as readonly string[]).includes(named)) {
      const path = await fromSource(named as ChromiumSource, probe);
      if (!path)
        throw new Error(`GIVEKIT_CHROMIUM=${named}, but that source has no Chromium on this machine.`);
      return { path, source: named as ChromiumSource };
    }
    if (!probe.isExecutable(named)) {
      throw new Error(`GIVEKIT_CHROMIUM names ${named}, which is not an executable file.`);
    }
    return { path: named, source: "GIVEKIT_CHROMIUM" };
  }
  for (const source of CHROMIUM_SOURCES) {
    const path = await fromSource(source, probe);
    if (path) return { path, source };
  }
  throw new Error(
    "No Chromium for the browser tests: none from Playwright, none on the PATH, and the " +
      "@sparticuz/chromium devDependency is missing or not for this platform. Run `npm install`, " +
      "or set GIVEKIT_CHROMIUM to a Chromium or Chrome executable.",
  );
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The probe of this machine. */
export function machineProbe(): ChromiumProbe {
  return {
    env: process.env,
    platform: process.platform,
    isExecutable,
    playwrightPath: async () => {
      try {
        const { chromium } = await import("playwright-core");
        return chromium.executablePath();
      } catch {
        return undefined;
      }
    },
    npmPath: async () => {
      // The package carries a Linux x64 build only.
      if (process.platform !== "linux" || process.arch !== "x64") return undefined;
      try {
        const { default: packaged } = await import("@sparticuz/chromium");
        return await packaged.executablePath();
      } catch {
        return undefined;
      }
    },
  };
}

/** Finds this machine's Chromium (see the order at the top of this file). */
export function findChromium(): Promise<FoundChromium> {
  return resolveChromium(machineProbe());
}
