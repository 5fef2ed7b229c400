import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockedPackage {
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as {
  packages: Record<string, LockedPackage>;
};
const nameOf = (path: string) => path.replace(/^.*node_modules\//, "");
const recorded = new Set(Object.keys(lock.packages).map(nameOf));

describe("package-lock.json, as npm ci reads it on any platform", () => {
  it("records every optional (platform) package of every locked package, not only this machine's", () => {
    const missing = Object.entries(lock.packages).flatMap(([path, locked]) =>
      Object.keys(locked.optionalDependencies ?? {})
        .filter((name) => !recorded.has(name))
        .map((name) => `${nameOf(path)} → ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it("records the native formatter, linter and bundler bindings for macOS, Windows and Linux alike", () => {
    for (const name of [
      "@oxfmt/binding-darwin-arm64",
      "@oxfmt/binding-win32-x64-msvc",
      "@oxlint/binding-darwin-arm64",
      "@oxlint/binding-linux-x64-musl",
      "@rolldown/binding-win32-x64-msvc",
    ]) {
      expect(recorded, name).toContain(name);
    }
  });
});
