// Import circles across the repository, type-only imports included (oxlint's import/no-cycle
// skips those), and imports across rooms that README.md's "Where things live" does not allow
// (widget/shared/ importing an element or a chunk among them).
// Run by `npm run lint`; exits 1 on a circle that is not in ALLOWED below, or such an import.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync, Visitor } from "vite";

/**
 * Import edges ("from -> to", paths from the repository's root) allowed to sit in a circle:
 * none since widget/donate was organised by purpose (issue 33). Kept so a circle met while
 * moving code can be listed on purpose, in its own commit; an edge here that is no longer in a
 * circle fails the check until it is removed.
 */
export const ALLOWED: readonly string[] = [];

const SOURCE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs)$/;
const SKIP = new Set(["node_modules", "dist", "data", "coverage", "test-results", "playwright-report"]);
const TRY = [".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs", ".d.ts"];

function sourceFiles(root: string, dir = root, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".") || SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(root, path, out);
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

/** The specifiers a file imports: static, re-exported, dynamic (a literal) and type-only. */
export function importSpecifiers(path: string, text: string): string[] {
  const parsed = parseSync(path, text);
  if (parsed.errors.length > 0) {
    throw new Error(`${path}: cannot be parsed: ${parsed.errors[0]?.message ?? ""}`);
  }
  const found: string[] = [];
  const take = (node: unknown): void => {
    const literal = node as { type?: string; value?: unknown } | null;
    if (literal?.type === "Literal" && typeof literal.value === "string") found.push(literal.value);
  };
  new Visitor({
    ImportDeclaration: (node) => take(node.source),
    ExportNamedDeclaration: (node) => take(node.source),
    ExportAllDeclaration: (node) => take(node.source),
    ImportExpression: (node) => take(node.source),
    TSImportType: (node) => take(node.source),
    TSExternalModuleReference: (node) => take(node.expression),
  }).visit(parsed.program);
  return found;
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const bare = resolve(dirname(from), specifier.replace(/[?#].*$/, ""));
  const stem = bare.replace(/\.(?:js|jsx|mjs)$/, "");
  const candidates = [bare, ...TRY.map((ext) => stem + ext), ...TRY.map((ext) => join(bare, "index" + ext))];
  return candidates.find((path) => SOURCE.test(path) && existsSync(path) && statSync(path).isFile());
}

/** Every import edge between the repository's own source files. */
export function importGraph(root: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const targets = new Set<string>();
    for (const specifier of importSpecifiers(file, readFileSync(file, "utf8"))) {
      const target = resolveImport(file, specifier);
      if (target !== undefined) targets.add(relative(root, target).split(sep).join("/"));
    }
    graph.set(relative(root, file).split(sep).join("/"), targets);
  }
  return graph;
}

/** The strongly connected groups of two files or more, or of one that imports itself (Tarjan). */
export function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || graph.get(node)?.has(node)) groups.push(group.toSorted());
    }
  };
  for (const node of [...graph.keys()].toSorted()) if (!index.has(node)) visit(node);
  return groups;
}

export interface CycleReport {
  /** Edges in a circle that the allowance does not name, grouped by circle. */
  readonly fresh: { readonly files: readonly string[]; readonly edges: readonly string[] }[];
  /** Allowed edges that are no longer in a circle: to be removed from the allowance. */
  readonly stale: readonly string[];
}

export function checkCycles(
  graph: Map<string, Set<string>>,
  allowed: readonly string[] = ALLOWED,
): CycleReport {
  const allowedSet = new Set(allowed);
  const inCircle = new Set<string>();
  const fresh: { files: string[]; edges: string[] }[] = [];
  for (const files of circles(graph)) {
    const members = new Set(files);
    const edges: string[] = [];
    for (const from of files) {
      for (const to of graph.get(from) ?? []) {
        if (!members.has(to)) continue;
        const edge = `${from} -> ${to}`;
        inCircle.add(edge);
        if (!allowedSet.has(edge)) edges.push(edge);
      }
    }
    if (edges.length > 0) fresh.push({ files, edges });
  }
  return { fresh, stale: allowed.filter((edge) => !inCircle.has(edge)) };
}

/**
 * What each room's own code (its tests aside) may import besides itself (README.md, "Where
 * things live"); a room not named here may import anything, and only these import `sandbox/`.
 */
const ROOMS: Record<string, readonly string[]> = {
  contract: [],
  http: [],
  sqlite: [],
  widget: ["contract"],
  proxy: ["contract", "http", "sqlite"],
  sandbox: ["contract", "http", "sqlite"],
};
const SANDBOX_USERS = new Set(["sandbox", "test", "bench", "scripts"]);

/**
 * Folders at the bottom of their room, and all that their own code (tests aside) may import
 * besides itself: widget/shared/ is below every element and chunk, so it uses none of them.
 */
const FLOORS: Record<string, readonly string[]> = {
  "widget/shared": ["widget/i18n", "contract"],
};
const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;

const roomOf = (path: string) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : "");

/**
 * Imports a room may not make, and imports upward out of a floor: "from -> to", by README.md's
 * "Where things live".
 */
export function roomViolations(graph: Map<string, Set<string>>): string[] {
  const found = new Set<string>();
  for (const [from, targets] of graph) {
    if (TEST_FILE.test(from)) continue;
    const room = roomOf(from);
    const allowed = ROOMS[room];
    for (const to of targets) {
      const target = roomOf(to);
      if (target === room) continue;
      const refused =
        (allowed !== undefined && !allowed.includes(target)) ||
        (target === "sandbox" && !SANDBOX_USERS.has(room));
      if (refused) found.add(`${from} -> ${to}`);
    }
    for (const [floor, below] of Object.entries(FLOORS)) {
      if (!within(from, floor)) continue;
      for (const to of targets) {
        if (![floor, ...below].some((folder) => within(to, folder))) found.add(`${from} -> ${to}`);
      }
    }
  }
  return [...found].toSorted();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const graph = importGraph(root);
  const { fresh, stale } = checkCycles(graph);
  const across = roomViolations(graph);
  for (const edge of across) {
    console.error(`An import README.md's "Where things live" does not allow: ${edge}`);
  }
  for (const { files, edges } of fresh) {
    console.error(`Import circle among ${files.length} files: ${files.join(", ")}`);
    for (const edge of edges) console.error(`  ${edge}`);
  }
  for (const edge of stale) {
    console.error(`No longer in a circle, remove it from ALLOWED in scripts/import-cycles.ts: ${edge}`);
  }
  if (fresh.length > 0 || stale.length > 0 || across.length > 0) process.exit(1);
  console.warn(`No new import circle (${ALLOWED.length} known edges allowed), no import across rooms.`);
}
