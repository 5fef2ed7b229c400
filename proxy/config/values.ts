/**
 * What every concern's variables use: the error that names a variable, the checks of whole
 * numbers and ratios, and where the package's own files are.
 */
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
    /** How to fix it, when more can be said than "correct the variable". */
    readonly fix?: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

/**
 * Where the package's own files are, so defaults work from any working directory: the nearest
 * folder above this module with a package.json (this file runs from proxy/config/ as source, and
 * from dist/server/ once built).
 */
export function packageRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

export const REPO_ROOT = packageRoot();

export function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(process.cwd(), path);
}

export const MAX_COUNT = 1_000_000;
export const MAX_SECONDS = 30 * 24 * 3600;
export const MAX_TIMEOUT_MS = 600_000;

export function whole(min: number, max: number) {
  return z.pipe(
    z.string().check(z.regex(/^\d{1,9}$/, "must be a whole number")),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.number().check(z.gte(min, `must be at least ${min}`), z.lte(max, `must be at most ${max}`)),
    ),
  );
}

export const Ratio = z.pipe(
  z.string(),
  z.transform((text, ctx) => {
    const value = Number(text);
    if (text.trim() === "" || !(value > 0 && value <= 1)) {
      ctx.issues.push({ code: "custom", input: text, message: "must be a number above 0 and at most 1" });
      return z.NEVER;
    }
    return value;
  }),
);

export const Required = z.string().check(z.minLength(1, "is required"));
