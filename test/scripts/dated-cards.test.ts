// A card expiry written into a test is a date the suite will one day pass: the servers under test
// judge cards by today's date. This scan finds every one that has not passed yet.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isExpired, parseExpiry } from "../../contract/card";
import { expiryAhead, FUTURE_EXPIRY, FUTURE_EXPIRY_TYPED } from "../helpers/cards";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Where test code lives: whole folders, and the unit tests beside the code elsewhere. */
const TEST_FOLDERS = ["test", "e2e", "bench", "scripts"];
const CODE_FOLDERS = ["contract", "widget", "proxy", "sandbox", "http", "sqlite"];
/** "12/2031" or '04/30' as a whole string literal. */
const EXPIRY_LITERAL = /(["'`])(\d{2}\s?\/\s?(?:\d{4}|\d{2}))\1/g;
/** A comment's line: an example there runs nothing. */
const COMMENT = /^\s*(\/\/|\/?\*)/;
/** A file that gives the code under test a clock of its own, where a literal expiry is judged by it. */
const FIXED_CLOCK = /\b(?:NOW|today)\s*=\s*new Date\("\d{4}-/;

function sources(folder: string, testsOnly: boolean): string[] {
  let entries;
  try {
    entries = readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .filter((entry) => !testsOnly || /\.(test|spec)\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !path.includes("node_modules"));
}

/** Each literal expiry that is still to come, as `file:line "MM/YYYY"`, in files with no clock of their own. */
export function unexpiredLiterals(now = new Date()): string[] {
  const files = [
    ...TEST_FOLDERS.flatMap((folder) => sources(folder, false)),
    ...CODE_FOLDERS.flatMap((folder) => sources(folder, true)),
  ];
  return files.flatMap((path) => {
    const text = readFileSync(path, "utf8");
    if (FIXED_CLOCK.test(text)) return [];
    return text.split("\n").flatMap((line, index) =>
      [...(COMMENT.test(line) ? [] : line.matchAll(EXPIRY_LITERAL))]
        .filter((match) => {
          const expiry = parseExpiry(match[2]!);
          return expiry !== null && !isExpired(expiry, now);
        })
        .map((match) => `${relative(ROOT, path)}:${index + 1} ${match[0]}`),
    );
  });
}

describe("card expiries in the tests", () => {
  it("none is written as a date still to come: each comes from today's date (test/helpers/cards.ts) or a clock the test gives", () => {
    expect(unexpiredLiterals()).toEqual([]);
  });

  it("the test cards' expiry is in the future today and in five years' time", () => {
    const expiry = parseExpiry(FUTURE_EXPIRY)!;
    expect(isExpired(expiry)).toBe(false);
    expect(parseExpiry(FUTURE_EXPIRY_TYPED)).toEqual(expiry);
    const later = new Date();
    later.setUTCFullYear(later.getUTCFullYear() + 5);
    expect(isExpired(parseExpiry(expiryAhead(5, later))!, later)).toBe(false);
  });

  it("the scan sees the literals there are: judged ten years ago, the past ones written since were still to come", () => {
    const tenYearsAgo = new Date();
    tenYearsAgo.setUTCFullYear(tenYearsAgo.getUTCFullYear() - 10);
    expect(unexpiredLiterals(tenYearsAgo)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^test\/proxy\/payment-tokens\.test\.ts:\d+ "01\/2020"$/),
      ]),
    );
  });
});
