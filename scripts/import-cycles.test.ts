import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkCycles as checkGraph, importGraph, roomViolations } from "./import-cycles";

const roots: string[] = [];
const checkCycles = (root: string, allowed: readonly string[]) => checkGraph(importGraph(root), allowed);

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "givekit-cycles-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("the import-cycle check", () => {
  it("finds a circle made only of type imports, which oxlint's import/no-cycle skips", () => {
    const root = tree({
      "cli/main.ts": 'import type { Output } from "./doctor";\nexport interface Run { out: Output }\n',
      "cli/doctor.ts": 'import type { Run } from "./main";\nexport interface Output { run: Run }\n',
    });
    expect(checkCycles(root, [])).toEqual({
      fresh: [
        {
          files: ["cli/doctor.ts", "cli/main.ts"],
          edges: ["cli/doctor.ts -> cli/main.ts", "cli/main.ts -> cli/doctor.ts"],
        },
      ],
      stale: [],
    });
  });

  it.each([
    ["a type-only import", 'import type { A } from "./a";'],
    ["an inline type specifier", 'import { type A } from "./a";'],
    ["a re-export", 'export { A } from "./a";'],
    ["a type re-export", 'export type { A } from "./a";'],
    ["an export of everything", 'export * from "./a";'],
    ["a dynamic import", 'export const load = () => import("./a");'],
    ["an import type", 'export type B = import("./a").A;'],
    ["a .js suffix", 'import type { A } from "./a.js";'],
  ])("sees a circle closed by %s", (_form, line) => {
    const root = tree({ "a.ts": 'import "./b";\nexport type A = 1;\n', "b.ts": `${line}\n` });
    expect(checkCycles(root, []).fresh.map((circle) => circle.files)).toEqual([["a.ts", "b.ts"]]);
  });

  it("resolves a folder to its index file and a .tsx file", () => {
    const root = tree({
      "a.ts": 'import "./c";\n',
      "c/index.ts": 'import "../b";\n',
      "b.tsx": 'import "./a";\n',
    });
    expect(checkCycles(root, []).fresh.map((circle) => circle.files)).toEqual([
      ["a.ts", "b.tsx", "c/index.ts"],
    ]);
  });

  it("passes a tree whose imports go one way, and ignores packages and assets", () => {
    const root = tree({
      "contract/rules.ts": 'import { z } from "zod/mini";\nexport const rule = z.string();\n',
      "proxy/app.ts": 'import { rule } from "../contract/rules";\nimport "./app.css";\nexport { rule };\n',
      "node_modules/x/index.ts": 'import "../../proxy/app";\n',
    });
    expect(checkCycles(root, [])).toEqual({ fresh: [], stale: [] });
  });

  it("lets a known circle through, fails on a new edge into it, and asks to remove a mended one", () => {
    const files = {
      "w/model.ts": 'import { view } from "./view";\nexport const model = () => view;\n',
      "w/view.ts": 'import type { model } from "./model";\nexport const view: typeof model | 0 = 0;\n',
    };
    const known = ["w/model.ts -> w/view.ts", "w/view.ts -> w/model.ts"];
    expect(checkCycles(tree(files), known)).toEqual({ fresh: [], stale: [] });

    const grown = tree({ ...files, "w/peer.ts": 'import "./model";\n', "w/view.ts": 'import "./peer";\n' });
    expect(checkCycles(grown, known).fresh[0]?.edges).toEqual([
      "w/peer.ts -> w/model.ts",
      "w/view.ts -> w/peer.ts",
    ]);

    const mended = tree({ ...files, "w/view.ts": "export const view = 0;\n" });
    expect(checkCycles(mended, known)).toEqual({ fresh: [], stale: known });
  });

  it("refuses an import across rooms that README.md's map does not allow, tests aside", () => {
    const root = tree({
      "contract/money.ts": "export const cents = 100;\n",
      "proxy/app.ts": 'import { cents } from "../contract/money";\nexport const app = cents;\n',
      "widget/form.ts": 'import type { app } from "../proxy/app";\nexport type Form = typeof app;\n',
      "widget/form.test.ts": 'import "../test/helpers/x";\n',
      "test/helpers/x.ts": 'import "../../sandbox/app";\n',
      "sandbox/app.ts": "export {};\n",
      "e2e/page.ts": 'import "../sandbox/app";\n',
      "contract/peek.ts": 'import "../http/body";\n',
      "http/body.ts": "export {};\n",
    });
    expect(roomViolations(importGraph(root))).toEqual([
      "contract/peek.ts -> http/body.ts",
      "e2e/page.ts -> sandbox/app.ts",
      "widget/form.ts -> proxy/app.ts",
    ]);
  });

  it("refuses an import from widget/shared/ up into an element or a chunk, its tests aside", () => {
    const root = tree({
      "contract/api.ts": "export type Live = 1;\n",
      "widget/i18n/index.ts": "export const locale = 'en';\n",
      "widget/shared/feed.ts":
        'import type { Live } from "../../contract/api";\nimport { locale } from "../i18n";\nimport { age } from "./age";\nexport const feed = [locale, age];\nexport type { Live };\n',
      "widget/shared/age.ts": "export const age = 0;\n",
      "widget/shared/client.ts": 'import { early } from "../chunks/early";\nexport const client = early;\n',
      "widget/shared/feed.test.ts": 'import "../wall/element";\n',
      "widget/chunks/early.ts": "export const early = 0;\n",
      "widget/wall/element.ts": 'import { feed } from "../shared/feed";\nexport const wall = feed;\n',
    });
    expect(roomViolations(importGraph(root))).toEqual(["widget/shared/client.ts -> widget/chunks/early.ts"]);
  });

  it("passes on this repository as `npm run lint` runs it", () => {
    const script = join(import.meta.dirname, "import-cycles.ts");
    const run = () =>
      execFileSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", stdio: "pipe" });
    expect(run).not.toThrow();
  });
});
