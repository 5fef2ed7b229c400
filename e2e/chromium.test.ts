import { describe, expect, it } from "vitest";
import { resolveChromium, type ChromiumProbe } from "./chromium";

const PLAYWRIGHT = "/home/me/.cache/ms-playwright/chromium-1234/chrome-linux/chrome";
const SYSTEM = "/usr/bin/chromium";
const NPM = "/tmp/chromium";

/** A machine with the given executables; the npm package present unless said otherwise. */
function machine(
  executables: string[],
  options: { env?: Record<string, string>; npm?: boolean; platform?: NodeJS.Platform } = {},
): ChromiumProbe & { npmCalls: number } {
  const files = new Set(executables);
  const probe = {
    npmCalls: 0,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...options.env },
    platform: options.platform ?? "linux",
    isExecutable: (path: string) => files.has(path),
    playwrightPath: async () => PLAYWRIGHT,
    npmPath: async () => {
      probe.npmCalls += 1;
      return options.npm === false ? undefined : NPM;
    },
  };
  return probe;
}

describe("resolveChromium: which browser the browser tests drive", () => {
  it("GIVEKIT_CHROMIUM as a path wins over every source", async () => {
    const probe = machine(["/opt/my/chrome", PLAYWRIGHT, SYSTEM], {
      env: { GIVEKIT_CHROMIUM: "/opt/my/chrome" },
    });
    expect(await resolveChromium(probe)).toEqual({ path: "/opt/my/chrome", source: "GIVEKIT_CHROMIUM" });
  });

  it("GIVEKIT_CHROMIUM naming a missing file is an error naming it, not a silent fallback", async () => {
    const probe = machine([SYSTEM], { env: { GIVEKIT_CHROMIUM: "/opt/nothing/chrome" } });
    await expect(resolveChromium(probe)).rejects.toThrow("GIVEKIT_CHROMIUM names /opt/nothing/chrome");
  });

  it("GIVEKIT_CHROMIUM naming a source takes that source even when an earlier one has a browser", async () => {
    const probe = machine([PLAYWRIGHT, SYSTEM], { env: { GIVEKIT_CHROMIUM: "npm" } });
    expect(await resolveChromium(probe)).toEqual({ path: NPM, source: "npm" });
  });

  it("GIVEKIT_CHROMIUM naming a source that has none is an error naming it", async () => {
    const probe = machine([SYSTEM], { env: { GIVEKIT_CHROMIUM: "playwright" } });
    await expect(resolveChromium(probe)).rejects.toThrow("GIVEKIT_CHROMIUM=playwright");
  });

  it("without the variable, Playwright's own Chromium comes first", async () => {
    expect(await resolveChromium(machine([PLAYWRIGHT, SYSTEM]))).toEqual({
      path: PLAYWRIGHT,
      source: "playwright",
    });
  });

  it("then a Chromium or Chrome on the PATH, and the npm package is not unpacked", async () => {
    const probe = machine(["/usr/bin/google-chrome"]);
    expect(await resolveChromium(probe)).toEqual({ path: "/usr/bin/google-chrome", source: "system" });
    expect(probe.npmCalls).toBe(0);
  });

  it("then Chrome in its usual place on macOS", async () => {
    const chrome = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome";
    expect(await resolveChromium(machine([chrome], { platform: "darwin" }))).toEqual({
      path: chrome,
      source: "system",
    });
  });

  it("a machine with nothing but Node and the npm registry gets the npm-registry Chromium", async () => {
    expect(await resolveChromium(machine([]))).toEqual({ path: NPM, source: "npm" });
  });

  it("with no source at all, the error says how to add one", async () => {
    await expect(resolveChromium(machine([], { npm: false }))).rejects.toThrow(/set GIVEKIT_CHROMIUM/);
  });
});
