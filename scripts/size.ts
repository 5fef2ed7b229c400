/**
 * `npm run size`: the built widget's sizes as served, against their budgets, and a scan proving
 * that no demo token made it into dist/widget. Exits 1 when a figure passes its guard (the budget,
 * or where a budget is still missed the figure that would be a regression), a token is
 * found, or the build is missing (run `npm run build` first).
 *
 * As served: the bytes the proxy sends a current browser, the Brotli sibling the build wrote
 * (`x.js.br`, quality 11), or the file itself where the build wrote none; the gzip sibling's
 * size (level 9, what a browser without Brotli gets) is printed beside it. Budgets are on the
 * Brotli figure.
 *
 *   widget.js            the loader the script tag loads                                ≤ 3 KB
 *   a page, in English   what it loads before its form is interactive: the loader, its
 *                        element's chunk (and anything that chunk imports at once) and
 *                        that chunk's English catalog                                   ≤ 26 KB
 *                        a page with <givekit-donate>                                   ≤ 20 KB
 *                        a page with every kind of element                              ≤ 28 KB
 *   a donation           the donate page, then what it loads meanwhile: the rest of the
 *                        form (later.ts, the request's check in it, and its English
 *                        words)                                                         ≤ 26 KB
 *                        printed beside: with every extra the attributes can turn on
 *                        (the country list, the phone rule, a dedication, the monthly
 *                        invitation, the dataLayer push), each a chunk of its own
 *   <givekit-goal>       its chunk alone, when it is built                              ≤ 4 KB
 *   <givekit-button>     its chunk alone (the form it opens comes on the first open)     ≤ 2 KB
 *   <givekit-wall>       its chunk and its English catalog (served beside the loader)   ≤ 6 KB
 *   <givekit-leaderboard> the same                                                     ≤ 6 KB
 *   the display page     /display/{shortcode}/{keyword}: its HTML, script (the QR code
 *                        included) and stylesheet                                       ≤ 40 KB
 *   the card frame       the script(s) /frame/card loads                                ≤ 8 KB
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { isSiblingName } from "../http/precompressed";
import type { ChunkImports } from "../vite.config";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../sandbox/fixture";
import { DEFAULT_CAMPAIGNS_PATH, loadCampaigns } from "../proxy/config";
import { loadDisplays } from "../proxy/campaign/directory";
import { displayPage } from "../proxy/campaign/display-page";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WIDGET_DIR = join(ROOT, "dist/widget");
const KB = 1024;

/** Brotli bytes, as served: the targets. */
export const BUDGETS = {
  loader: 3 * KB,
  page: 26 * KB,
  donatePage: 20 * KB,
  everything: 28 * KB,
  donation: 26 * KB,
  goal: 4 * KB,
  button: 2 * KB,
  wall: 6 * KB,
  leaderboard: 6 * KB,
  display: 40 * KB,
  frame: 8 * KB,
} as const;

/**
 * Where a target is still missed, the figure the build must not pass (a regression), a little
 * above today's: the target is printed beside it as missed, and the run fails only past the
 * guard, as `npm run bench` does. The donate page's 20 KB was met on 2026-11-26 (19.47 KB) and
 * missed again on 2026-11-27 (20.09 KB): widget.js asks for the campaign beside the donate chunk
 * (one wave of requests instead of three, issue 32), and the peer picker searches as the donor
 * types (+0.3 KB, issue 37). Then (20.62 KB, and 26.75 KB for a whole donation against 26):
 * widget.js opens the card frame itself and the first step gives it the form's look (+0.47 KB
 * before the form works, +0.75 KB in all), which brought the card field from 3.2-3.9 s to
 * 2.1 s and the first step from 2.2-2.6 s to 2.0-2.1 s on a slow 4G phone (README, "A donor's
 * wait"): the time is the donor's, the bytes only one of its causes. The donate page met its
 * 20 KB again on 2026-11-27 (19.92 KB; its guard gone): what the first step does not need came
 * to the rest of the form (the submit path, the card's state, success-url) and to the monthly
 * invitation's extra. A whole donation is 26.69 KB (26.75 before): the moved code costs a little
 * more in the smaller chunk than it saved in the first one; the monthly invitation's reckoning and
 * look and the address's fields, now in their extras, paid it back. On 2026-11-29, 27.08 KB,
 * guard 27.15, on purpose, both in the rest of the form, not the first step (19.97 KB): the
 * submit path waits through the proxy's open circuit breakers by itself, saying "Checking…" with
 * a way out, rather than failing the donor (issue 42, +0.15 KB); the form tells its card frame
 * each step and refusal for the staff dashboard's counts (issue 46, +0.22 KB). On 2026-12-06 the
 * donate page 20.71 KB, every element 28.07 KB and a whole donation 27.84 KB: every element
 * chooses its language (the `locale` attribute, the page's, the browser's) and reads right to
 * left (issue 54: +0.72 KB before the form works, English loading no other language's words);
 * what it costs in English is issue 54's to win back, guarded here until then. Every element 28.12
 * KB with the submit path's first retry after 3 s at an open breaker (issue 51, +0.05 KB). On
 * 2026-12-07 (issue 54, winning it back) the donate page 20.60 KB, every element 27.97-28.00 KB
 * (its 28 KB met again, by so little that the chunks' hashed names alone move it across: guarded
 * at 28.05) and a whole donation 27.78 KB: an English chunk carries no list of
 * languages (their traits apart, contract/locale-traits.ts), widget.js's chooser is smaller, and
 * no chunk checks for a message source it always has; a page's own words per language
 * (`givekitMessages`, their code fetched only where set) cost 0.04 KB of that. What is left of the
 * 0.6 KB is the choosing itself, the right-to-left isolation and the fallback to English, each a
 * feature of issue 54; guarded a few hundredths above (Brotli moves a few bytes either way when
 * only the chunks' hashed names change). Later on 2026-12-07 the donate page 20.47 KB, a whole
 * donation 27.69 KB and every element 27.82 KB (its 28 KB met, its guard gone): the element chunks
 * are named by one version of their sources (vite.config.ts's CODE_VERSION), so the donate chunk
 * carries one repeated name for its lazy parts, the languages' switch and page words among them,
 * not nine random ones, and widget.js builds the chunks' names as it does the catalogs'; widget.js
 * reads a language tag with Intl.Locale. A page's script changing `locale` keeps the form and
 * reaches the card frame (+0.04 KB before the form works, +0.08 KB in all). Brotli still moves
 * these ±0.05 KB with the version's eight characters alone (its medians over random versions:
 * 20.48, 27.70 and 27.85 KB; before the languages, at 902ff2a, 20.01, 27.12 and 27.37 KB, issue
 * 51's retry since adding about 0.03 KB to the last two): guarded 0.1 KB above the medians, a
 * few hundredths above the highest of 61 draws (20.55 and 27.77 KB), as a change to any widget
 * source draws again. Later on 2026-12-07 (issues 52 and 54) the donate page 20.27 KB, a whole
 * donation 27.69 KB and every element 27.70 KB (medians over 61 random versions: 20,976 → 20,752
 * B, 28,370 → 28,353 B, 28,494 → 28,365 B; the highest draws 20,792 and 28,410 B): the patterns
 * only a whole request's check reads (contract/request-patterns.ts) and the Terms and privacy
 * links (shared/ExternalLink.tsx) come with the rest of the form, not in the first step's chunk (a
 * bundler places a module whole, with every export that any chunk reads). Guarded, as before, 0.1
 * KB above the medians. On 2026-12-07 (issue 55, on purpose) the donate page 20.38 KB and a whole
 * donation 27.81 KB (one draw each): `<givekit-donate form="…">`, a form the staff saved in the
 * dashboard, costs every donate page 0.11 KB before the form works (widget.js fetching the saved
 * form's chunk beside the donate chunk for such an element, and the donate chunk handing that
 * chunk its Preact, signals and readers), the saved form's own code 1.25 KB only where it is used.
 * Later on 2026-12-07 (issues 51 and 55, on purpose) the donate page 20.46 KB and a whole donation
 * 27.95 KB: a held card comes back when the breaker's Retry-After says (+0.09 KB in all, the card
 * frame +0.05), and the donate form reads `locales` from a saved form with one list of its
 * attributes in contract/ (+0.05 KB before the form works); medians over 61 random versions
 * 20,974 and 28,657 B before the Retry-After's trim (-0.03 KB). Guarded 0.1 KB above them.
 */
export const GUARDS: Partial<Record<keyof typeof BUDGETS, number>> = {
  donatePage: 20.58 * KB,
  donation: 28.06 * KB,
};

/** dist/widget/chunks.json, written by the build (vite.config.ts). */
interface ChunkTable {
  elements: Record<string, string>;
  all: string;
  /** Each chunk's catalogs (a tag's, or "all") by language. */
  messages: Record<string, Record<string, string>>;
  /** What each chunk imports, at once and later (vite.config.ts writes it). */
  imports: Record<string, ChunkImports>;
}

/** A file's bytes as served: its Brotli and gzip siblings' sizes, or its own where there is none. */
export interface Served {
  br: number;
  gzip: number;
}

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : null);

export function servedSize(path: string): Served {
  const own = statSync(path).size;
  return { br: sizeOf(`${path}.br`) ?? own, gzip: sizeOf(`${path}.gz`) ?? own };
}

const add = (a: Served, b: Served): Served => ({ br: a.br + b.br, gzip: a.gzip + b.gzip });
const NONE: Served = { br: 0, gzip: 0 };

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

/** The demo campaign's display page as the proxy sends it (before compression). */
function demoDisplayPage(): string {
  const campaign = loadCampaigns(DEFAULT_CAMPAIGNS_PATH)[0]!;
  const display = loadDisplays(DEFAULT_CAMPAIGNS_PATH).get(`${campaign.shortcode}/${campaign.keyword}`)!;
  return displayPage(campaign, display, {
    script: "/display/assets/display.js",
    style: "/display/assets/display.css",
  });
}

/** The report goes to stdout; problems go to stderr (console.error). */
const print = (line: string) => process.stdout.write(`${line}\n`);
const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} KB`;
const LEFT = 56;

function main(): number {
  if (!existsSync(join(WIDGET_DIR, "widget.js"))) {
    console.error("dist/widget/widget.js is missing: run `npm run build` first.");
    return 1;
  }
  if (!existsSync(join(WIDGET_DIR, "widget.js.br"))) {
    console.error(
      "dist/widget/widget.js.br is missing: run `npm run build` (it writes the compressed files).",
    );
    return 1;
  }
  let failed = false;
  const line = (name: string, bytes: Served, budget?: keyof typeof BUDGETS) => {
    const target = budget === undefined ? undefined : BUDGETS[budget];
    const guard = budget === undefined ? undefined : GUARDS[budget];
    const over = target !== undefined && bytes.br > target;
    const regressed = over && (guard === undefined || bytes.br > guard);
    failed ||= regressed;
    const limit =
      target === undefined
        ? ""
        : `of ${kb(target)}${regressed ? "  OVER BUDGET" : over ? `  missed (guard ${kb(guard!)})` : "  ok"}`;
    print(`  ${name.padEnd(LEFT)} ${kb(bytes.br).padStart(9)} ${kb(bytes.gzip).padStart(10)}  ${limit}`);
  };

  print("dist/widget as served: Brotli (what a current browser gets; the budgets), gzip beside it");
  print(`  ${"".padEnd(LEFT)} ${"br".padStart(9)} ${"gzip".padStart(10)}`);
  const loader = servedSize(join(WIDGET_DIR, "widget.js"));
  line("widget.js (the loader)", loader, "loader");

  const tablePath = join(WIDGET_DIR, "chunks.json");
  if (!existsSync(tablePath)) {
    console.error("dist/widget/chunks.json is missing: run `npm run build` first.");
    return 1;
  }
  const table = JSON.parse(readFileSync(tablePath, "utf8")) as ChunkTable;
  const chunk = (file: string) => servedSize(join(WIDGET_DIR, file));
  const catalogs = (key: string) => {
    for (const file of table.imports[key]?.imports ?? []) line(`    with, at once, ${file}`, chunk(file));
    for (const [locale, file] of Object.entries(table.messages[key] ?? {}))
      line(`    its ${locale} messages (${file})`, chunk(file));
    for (const file of table.imports[key]?.later ?? []) line(`    later: ${file}`, chunk(file));
    for (const file of table.imports[key]?.extras ?? [])
      line(`    later, if turned on: ${file}`, chunk(file));
    for (const [locale, files] of Object.entries(table.imports[key]?.laterMessages ?? {}))
      for (const file of files) line(`    later (${locale}): ${file}`, chunk(file));
  };
  /** A chunk and what it imports at once: what the browser must have before it runs. */
  const whole = (key: string, file: string) =>
    (table.imports[key]?.imports ?? []).reduce((sum, dependency) => add(sum, chunk(dependency)), chunk(file));
  for (const [tag, file] of Object.entries(table.elements)) {
    line(`  <${tag}> chunk (${file})`, chunk(file));
    catalogs(tag);
  }
  line(`  every element (${table.all})`, chunk(table.all));
  catalogs("all");
  const english = (key: string) => chunk(table.messages[key]!.en!);
  print("What a page loads before its forms are interactive (English):");
  for (const [tag, file] of Object.entries(table.elements)) {
    const total = add(add(loader, whole(tag, file)), english(tag));
    line(`  a page with <${tag}> only`, total, tag === "givekit-donate" ? "donatePage" : "page");
    const laterFiles = [
      ...(table.imports[tag]?.later ?? []),
      ...(table.imports[tag]?.laterMessages?.en ?? []),
    ];
    const later = laterFiles.reduce((sum, dependency) => add(sum, chunk(dependency)), NONE);
    if (later.br > 0) {
      line(`    and all a donation loads (with ${kb(later.br)} later)`, add(total, later), "donation");
      const extras = (table.imports[tag]?.extras ?? []).reduce((sum, extra) => add(sum, chunk(extra)), NONE);
      line(`      with every extra turned on (${kb(extras.br)} more)`, add(add(total, later), extras));
    }
  }
  line(
    "  a page with every kind of element",
    add(add(loader, whole("all", table.all)), english("all")),
    "everything",
  );
  const goal = table.elements["givekit-goal"];
  if (goal) line("<givekit-goal> chunk alone", chunk(goal), "goal");
  for (const [tag, budget] of [
    ["givekit-wall", "wall"],
    ["givekit-leaderboard", "leaderboard"],
  ] as const) {
    const file = table.elements[tag];
    if (file) line(`<${tag}> chunk and its en messages`, add(whole(tag, file), english(tag)), budget);
  }
  const button = table.elements["givekit-button"];
  const donate = table.elements["givekit-donate"];
  if (button) {
    line("<givekit-button> chunk alone", chunk(button), "button");
    // What its first open adds: the form's chunk and catalog (the card frame is counted below).
    if (donate)
      line(
        "  and the form it opens (donate chunk, its en messages)",
        add(whole("givekit-donate", donate), english("givekit-donate")),
      );
  }

  // The display page's HTML is made by the proxy (its QR code drawn in it): measured as the demo campaign's.
  const displayScript = join(WIDGET_DIR, "display/display.js");
  if (existsSync(displayScript)) {
    const html = new TextEncoder().encode(demoDisplayPage());
    const page = { br: brotliCompressSync(html).length, gzip: gzipSync(html).length };
    line("display page HTML (71777/HOPE, with its QR code)", page);
    const files = add(servedSize(displayScript), servedSize(join(WIDGET_DIR, "display/display.css")));
    line("  and its script and stylesheet, in all", add(page, files), "display");
  }

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
  line(
    `card frame page (/frame/card${styles.length === 0 ? ", its stylesheet in it" : ""})`,
    servedSize(framePage),
  );
  const frameScripts = scripts.reduce((sum, src) => add(sum, servedSize(local(src))), NONE);
  line(`card frame script (${scripts.map((src) => src.split("/").pop()).join(", ")})`, frameScripts, "frame");
  for (const href of styles)
    line(`card frame stylesheet (${href.split("/").pop()})`, servedSize(local(href)));
  if (existsSync(join(WIDGET_DIR, "givekit.js")))
    line("givekit.js (ES module)", servedSize(join(WIDGET_DIR, "givekit.js")));

  // The forms check with contract/'s rules by hand (widget/shared/checks.ts, donate/request-check.ts),
  // not with zod's parsers: no chunk an element loads, at once or later, carries zod (its code says `_zod`),
  // nor the card frame's script (a constant taken from a file with schemas brought zod's setup in).
  const loaded = [
    ...[...Object.entries(table.elements), ["all", table.all] as const].flatMap(([key, file]) => [
      file,
      ...(table.imports[key]?.imports ?? []),
      ...(table.imports[key]?.later ?? []),
      ...(table.imports[key]?.extras ?? []),
    ]),
    ...scripts.map((src) => src.replace(/^\//, "")),
  ];
  const withZod = [...new Set(loaded)].filter((file) =>
    readFileSync(join(WIDGET_DIR, file), "utf8").includes("_zod"),
  );
  if (withZod.length > 0) {
    failed = true;
    console.error(`zod is in what the elements or the card frame load: ${withZod.join(", ")}`);
  } else {
    print(`No zod in what the elements and the card frame load (${new Set(loaded).size} chunks).`);
  }

  const tokens = demoTokens();
  // The siblings are the same text compressed: the scan reads the files they were made from.
  const files = filesUnder(WIDGET_DIR).filter((path) => !isSiblingName(path));
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
