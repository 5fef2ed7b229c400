/**
 * `npm run size`: the built widget's gzip sizes against their budgets, and a scan proving
 * that no demo token made it into dist/widget. Exits 1 when a budget is exceeded, a token is
 * found, or the build is missing (run `npm run build` first).
 *
 *   widget.js            the loader the script tag loads                                ≤ 3 KB
 *   a page, in English   the loader + its elements' chunk + that chunk's English catalog ≤ 31 KB
 *                        (<givekit-donate> alone: target 26 KB, reported). 31 KB: the
 *                        30 KB that widget.js had for everything, plus the Pending follow-up;
 *                        a page with every element (the goal too) ≤ 32 KB
 *   <givekit-goal>       its chunk alone, when it is built                              ≤ 4 KB
 *   the card frame       the script(s) /frame/card loads                                ≤ 12 KB
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../sandbox/fixture";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WIDGET_DIR = join(ROOT, "dist/widget");
const KB = 1024;
const GZIP_LEVEL = 9;

export const BUDGETS = {
  loader: 3 * KB,
  page: 31 * KB,
  everything: 32 * KB,
  goal: 4 * KB,
  frame: 12 * KB,
} as const;
/** The target for a page with only `<givekit-donate>` in English: reported, not enforced. */
export const DONATE_PAGE_TARGET = 26 * KB;

/** dist/widget/chunks.json, written by the build (vite.config.ts). */
interface ChunkTable {
  elements: Record<string, string>;
  all: string;
  /** Each chunk's catalogs (a tag's, or "all") by language. */
  messages: Record<string, Record<string, string>>;
}

export function gzipSize(path: string): number {
  return gzipSync(readFileSync(path), { level: GZIP_LEVEL }).length;
}

/** The files a page loads, from its <script src> (and, for the report, stylesheet) tags. */
export function pageAssets(html: string): { scripts: string[]; styles: string[] } {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!);
  const styles = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map(
    (match) => match[1]!,
  );
  return { scripts, styles };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every token value in the demo fixture (private and public, every account). */
export function demoTokens(fixturePath = DEMO_FIXTURE_PATH): string[] {
  return loadFixtureFile(fixturePath).accounts.flatMap((account) => [
    account.privateToken,
    account.publicToken,
  ]);
}

/** The report goes to stdout; problems go to stderr (console.error). */
const print = (line: string) => process.stdout.write(`${line}\n`);
const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} KB`;

function main(): number {
  if (!existsSync(join(WIDGET_DIR, "widget.js"))) {
    console.error("dist/widget/widget.js is missing: run `npm run build` first.");
    return 1;
  }
  let failed = false;
  const line = (name: string, bytes: number, budget?: number) => {
    const over = budget !== undefined && bytes > budget;
    failed ||= over;
    const limit = budget === undefined ? "(no budget)" : `of ${kb(budget)}${over ? "  OVER BUDGET" : "  ok"}`;
    print(`  ${name.padEnd(44)} ${kb(bytes).padStart(10)}  ${limit}`);
  };

  print(`gzip -${GZIP_LEVEL} sizes of dist/widget`);
  const loader = gzipSize(join(WIDGET_DIR, "widget.js"));
  line("widget.js (the loader)", loader, BUDGETS.loader);

  const tablePath = join(WIDGET_DIR, "chunks.json");
  if (!existsSync(tablePath)) {
    console.error("dist/widget/chunks.json is missing: run `npm run build` first.");
    return 1;
  }
  const table = JSON.parse(readFileSync(tablePath, "utf8")) as ChunkTable;
  const chunk = (file: string) => gzipSize(join(WIDGET_DIR, file));
  const catalogs = (key: string) => {
    for (const [locale, file] of Object.entries(table.messages[key] ?? {}))
      line(`    its ${locale} messages (${file})`, chunk(file));
  };
  for (const [tag, file] of Object.entries(table.elements)) {
    line(`  <${tag}> chunk (${file})`, chunk(file));
    catalogs(tag);
  }
  line(`  every element (${table.all})`, chunk(table.all));
  catalogs("all");
  const english = (key: string) => chunk(table.messages[key]!.en!);
  print("What a page loads before its forms are interactive (English):");
  for (const [tag, file] of Object.entries(table.elements)) {
    const total = loader + chunk(file) + english(tag);
    line(`  a page with <${tag}> only`, total, BUDGETS.page);
    if (tag === "givekit-donate") {
      const verdict = total <= DONATE_PAGE_TARGET ? "met" : `missed by ${kb(total - DONATE_PAGE_TARGET)}`;
      print(`    (target ${kb(DONATE_PAGE_TARGET)}: ${verdict})`);
    }
  }
  line("  a page with every kind of element", loader + chunk(table.all) + english("all"), BUDGETS.everything);
  const goal = table.elements["givekit-goal"];
  if (goal) line("<givekit-goal> chunk alone", chunk(goal), BUDGETS.goal);

  const framePage = join(WIDGET_DIR, "frame/card.html");
  if (!existsSync(framePage)) {
    console.error("dist/widget/frame/card.html is missing: run `npm run build` first.");
    return 1;
  }
  const { scripts, styles } = pageAssets(readFileSync(framePage, "utf8"));
  const local = (src: string) => join(WIDGET_DIR, src.replace(/^\//, ""));
  if (scripts.length === 0 || !scripts.every((src) => existsSync(local(src)))) {
    console.error(`The card frame's scripts are missing: ${scripts.join(", ") || "none named"}.`);
    return 1;
  }
  const frameScripts = scripts.reduce((sum, src) => sum + gzipSize(local(src)), 0);
  line(
    `card frame script (${scripts.map((src) => src.split("/").pop()).join(", ")})`,
    frameScripts,
    BUDGETS.frame,
  );
  for (const href of styles) line(`card frame stylesheet (${href.split("/").pop()})`, gzipSize(local(href)));
  if (existsSync(join(WIDGET_DIR, "givekit.js")))
    line("givekit.js (ES module)", gzipSize(join(WIDGET_DIR, "givekit.js")));

  const tokens = demoTokens();
  const files = filesUnder(WIDGET_DIR);
  const leaks = files.flatMap((path) => {
    const text = readFileSync(path, "utf8");
    return tokens.filter((token) => text.includes(token)).map(() => relative(ROOT, path));
  });
  if (leaks.length > 0) {
    failed = true;
    console.error(`A demo token value appears in: ${[...new Set(leaks)].join(", ")}`);
  } else {
    print(`No demo token value (${tokens.length} checked) appears in dist/widget (${files.length} files).`);
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
