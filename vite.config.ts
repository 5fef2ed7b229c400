import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { preact } from "@preact/preset-vite";
import { defineConfig, type BuildEnvironmentOptions, type Plugin } from "vite";
import { BROTLI_QUALITY, GZIP_LEVEL, isSiblingName } from "./http/precompressed";
import { LOCALES } from "./contract/locales";
import type { ChunkTable } from "./widget/loader";

/**
 * `vite build` builds these, one Vite environment each, in this order:
 *   donate, optin, goal, button, wall, leaderboard, all
 *           → dist/widget/assets/*.js     ES modules: an element's code, whole (a page with one
 *                                         element loads nothing of the others), every element's
 *                                         together, and beside each its catalog in each language
 *                                         (what its elements say, and no more)
 *   widget  → dist/widget/widget.js       the script-tag file (IIFE): a loader of those chunks
 *   module  → dist/widget/givekit.js      the ES module for bundlers: defineElements(), mount()
 *   frame   → dist/widget/frame/card.html the card frame page, its script in dist/widget/assets/
 *   display → dist/widget/display/display.{js,css} the room's screen's script and stylesheet
 *                                         (its page is made by the proxy: proxy/campaign/display-page.ts, proxy/routes/display.ts)
 *   dashboard → dist/widget/dashboard/dashboard.{js,css} the staff dashboard's script and
 *                                         stylesheet (its page is made by the proxy: proxy/dashboard/)
 *   designer  → dist/widget/dashboard/forms.{js,css}     the form designer's (proxy/dashboard/forms.ts)
 *   client  → dist/demo/                  the demo campaign page (index.html, Vite's root)
 */
const WIDGET_DIR = "dist/widget";
const FRAME_HTML_SOURCE = "widget/frame/card.html";
const FRAME_HTML_OUTPUT = "frame/card.html";
/**
 * The chunks widget.js loads on demand, each built whole (its own Preact and zod: shared chunks
 * would cost a one-element page more than they save): `<givekit-NAME>`'s code, and `all` for a
 * page that shows more than one kind. Each exports `define(messages)`.
 */
const ELEMENT_CHUNKS: Record<string, string> = {
  donate: "widget/chunks/donate.ts",
  optin: "widget/chunks/optin.ts",
  goal: "widget/chunks/goal.ts",
  button: "widget/chunks/button.ts",
  wall: "widget/chunks/wall.ts",
  leaderboard: "widget/chunks/leaderboard.ts",
  all: "widget/chunks/all.ts",
};
const ELEMENT_CHUNKS_MODULE = "virtual:givekit/element-chunks";
/** dist/widget/chunks.json: the chunk table and the messages' files, read by `npm run size`. */
const CHUNK_TABLE_FILE = "chunks.json";

/**
 * The catalogs' version, in their file names (assets/NAME-LOCALE-VERSION.js): a hash of every
 * catalog's source, so a changed word is a new file. widget.js builds each catalog's address from
 * it and the language, rather than carrying a table of 12 languages' hashed names per chunk
 * (1.3 KB more in every English page's widget.js).
 */
// With this file: how the catalogs are built changes them too (pluralInEachCatalog).
const CATALOG_SOURCES = ["widget/i18n", "widget/chunks/messages", "contract/locales.ts", "vite.config.ts"];
const CATALOG_VERSION = (() => {
  const hash = createHash("sha256");
  for (const source of CATALOG_SOURCES) {
    const files = source.endsWith(".ts")
      ? [source]
      : readdirSync(source)
          .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
          .toSorted()
          .map((file) => join(source, file));
    for (const file of files) hash.update(file).update(readFileSync(file));
  }
  return hash.digest("base64url").slice(0, 8);
})();

/** Every file under `dir`, its folders' too, in a stable order. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
    .toSorted();

/**
 * The element chunks' version, in their file names (assets/NAME-VERSION.js, and their lazy parts'
 * assets/PART-BVERSION.js, B their build's initial): a hash of every source an element build can
 * read (widget/ and contract/ but their tests and notes), this file and the lockfile, rather
 * than each chunk by its own hash. The donate chunk names its lazy parts by address (the rest of
 * the form, the extras, the language switch, a page's own words), and widget.js names every
 * element's chunk: nine and seven random names cost them about 0.1 KB and 0.04 KB of Brotli,
 * where one repeated costs a few bytes. A change to any of those sources renames every element
 * chunk (each cached for a year by its name: proxy/routes/widget.ts).
 */
const CODE_VERSION = (() => {
  const hash = createHash("sha256");
  const sources = [...filesUnder("widget"), ...filesUnder("contract")].filter(
    (file) => !/\.test\.tsx?$|\.md$/.test(file),
  );
  for (const file of [...sources, "vite.config.ts", "package-lock.json"])
    hash.update(file).update(readFileSync(file));
  return hash.digest("base64url").slice(0, 8);
})();

const widgetBuild = (options: BuildEnvironmentOptions): BuildEnvironmentOptions => ({
  outDir: WIDGET_DIR,
  emptyOutDir: false,
  copyPublicDir: false,
  modulePreload: false,
  target: "es2022",
  ...options,
});

/**
 * JSX as Preact's own `h(type, props, ...children)` calls rather than the automatic runtime's
 * `jsx(type, { ...props, children })`: the same elements in fewer bytes. Listed after preact(),
 * whose JSX setting it replaces, and for builds only (the tests keep the preset's).
 */
function classicJsx(): Plugin[] {
  return [
    {
      name: "givekit:classic-jsx",
      apply: "build",
      config: () => ({ oxc: { jsx: { runtime: "classic", pragma: "h", pragmaFrag: "Fragment" } } }),
    },
    {
      // Into .tsx files only (not oxc's jsxInject, which is every file): a message catalog
      // importing preact would tie its chunk to preact's.
      name: "givekit:classic-jsx-import",
      apply: "build",
      enforce: "pre",
      transform(code, id) {
        if (!id.endsWith(".tsx")) return null;
        // A binding named h there would take the place of Preact's in the elements below it: the
        // tests (automatic runtime) pass, and the built page throws "h is not a function".
        const uncommented = code.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
        if (/\b(?:const|let|var|function|class)\s+h\b|[(,]\s*h\s*[,)=:]/.test(uncommented))
          this.error(`${id}: a binding named h hides the JSX's h (classic runtime in builds); rename it`);
        return `import { h, Fragment } from "preact";${code}`;
      },
    },
  ];
}

/**
 * The widget's few lazy imports (the rest of the donate form and its extras) need no preloading: they have
 * no CSS and no dependencies of their own to fetch ahead (build.modulePreload is off). Vite's
 * preload helper, about 0.6 KB in every chunk with an import(), becomes a plain call.
 */
function plainDynamicImports(): Plugin {
  const helper = "\0vite/preload-helper.js";
  return {
    name: "givekit:plain-dynamic-imports",
    apply: "build",
    enforce: "pre",
    resolveId: (id) => (id === helper ? id : null),
    load: (id) => (id === helper ? "export const __vitePreload = (load) => load();" : null),
  };
}

/**
 * The catalogs' plural helper (widget/i18n/plural.ts) as a copy in each module that imports it:
 * shared by the French, Arabic, Portuguese and Russian catalogs of one build, it became a chunk
 * of its own that each of them imported once it had come, a second request after the catalog's.
 */
function pluralInEachCatalog(): Plugin {
  return {
    name: "givekit:plural-in-each-catalog",
    apply: "build",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!importer || !source.endsWith("/plural")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved?.id.endsWith("/widget/i18n/plural.ts")) return null;
      return `${resolved.id}?in=${importer.split("/").pop()}`;
    },
  };
}

/** The frame page's stylesheet link, as Vite writes it. */
const FRAME_STYLESHEET = /<link rel="stylesheet" crossorigin href="\/(assets\/[\w.-]+\.css)">/;

/**
 * Vite names an HTML page after its path from the root; the proxy serves it as frame/card.html.
 * Its stylesheet (half a kilobyte) goes into the page as a `<style>`: one request fewer for a
 * donor's phone, whose headers weighed as much as the file (the frame's policy allows its own
 * inline style).
 */
function placeFrameHtml(): Plugin {
  return {
    name: "givekit:place-frame-html",
    enforce: "post",
    applyToEnvironment: (environment) => environment.name === "frame",
    generateBundle(_options, bundle) {
      const page = bundle[FRAME_HTML_SOURCE];
      if (page?.type !== "asset") return;
      delete bundle[FRAME_HTML_SOURCE];
      let html = String(page.source);
      const [link, cssFile] = FRAME_STYLESHEET.exec(html) ?? [];
      const css = cssFile ? bundle[cssFile] : undefined;
      if (link && css?.type === "asset") {
        const text = String(css.source).trim();
        if (/<\/style/i.test(text)) this.error(`${cssFile} cannot go inside a <style>: it says </style.`);
        html = html.replace(link, () => `<style>${text}</style>`);
        delete bundle[cssFile!];
      }
      this.emitFile({ type: "asset", fileName: FRAME_HTML_OUTPUT, source: html });
    },
  };
}

/**
 * What an element chunk imports: at once (none, while chunks stay whole), later (import()), and
 * later by language (the words of what comes later, one catalog per language; a page fetches its
 * own); and the extras, later parts only an element whose attributes turn them on fetches.
 */
export interface ChunkImports {
  imports: string[];
  later: string[];
  laterMessages: Record<string, string[]>;
  extras: string[];
}

/**
 * The rest of the donate form, fetched as it opens; its other lazy parts are the extras its
 * attributes turn on (widget/donate/load-later.ts's extrasFor).
 */
const LATER_ENTRY = "/widget/donate/later.ts";
/** A saved form's code (`form="…"`), which widget.js fetches beside the donate chunk for such an element. */
const SAVED_FORM_ENTRY = "/widget/donate/saved/SavedForm.ts";
/** Its file, by the build's version, as widget.js names it (loader.ts). */
const SAVED_FORM_FILE = `assets/saved-form-${CODE_VERSION}.js`;

/** The donate form's later words (widget/chunks/messages/donate-later-LOCALE.ts): English's a chunk, the others entries. */
const LATER_WORDS = "donate-later";
/** The languages whose catalogs a chunk fetches by their address (the form's later words, the card frame's). */
const LATER_LOCALES = LOCALES.filter((locale) => locale !== "en");

/** How the table names a chunk: by its element's tag, or "all". */
const tableKey = (name: string) => (name === "all" ? name : `givekit-${name}`);

/**
 * Tells widget.js where each element's chunk went: each element's build records the hashed file
 * names of the ELEMENT_CHUNKS entries, and the widget build reads them as a virtual module.
 * One instance for every environment's build (sharedDuringBuild), so what the element builds
 * record stays in this closure for the widget build to read.
 */
function elementChunkNames(): Plugin {
  /** Each element chunk's file, by element (ELEMENT_CHUNKS' names). */
  const files: Record<string, string> = {};
  /** Each element's catalog files, by element and language. */
  const messageFiles: Record<string, Record<string, string>> = {};
  /** What each element chunk imports (ChunkImports). */
  const chunkImports: Record<string, ChunkImports> = {};
  /**
   * The saved-form chunk's code in each element build that has one (donate's and all's): one file
   * for both (SAVED_FORM_FILE), as it imports nothing of theirs (widget/donate/saved/SavedForm.ts).
   */
  const savedForms: Record<string, string> = {};
  const savedFormFile = () => {
    const made = new Set(Object.values(savedForms));
    if (made.size !== 1)
      throw new Error(`One saved-form chunk expected from donate's and all's builds, not ${made.size}.`);
    return SAVED_FORM_FILE;
  };
  const resolved = `\0${ELEMENT_CHUNKS_MODULE}`;
  const table = () => {
    const missing = Object.keys(ELEMENT_CHUNKS).filter((name) => !files[name]);
    if (missing.length > 0)
      throw new Error(`Build ${missing.join(", ")} before widget.js, which names their chunks.`);
    const { all, ...elements } = files;
    const byTag = Object.entries(elements).map(([name, file]) => [tableKey(name), file]);
    const messages = Object.entries(messageFiles).map(([name, byLocale]) => [tableKey(name), byLocale]);
    return {
      elements: Object.fromEntries(byTag) as Record<string, string>,
      all: all!,
      catalogs: CATALOG_VERSION,
      messages: Object.fromEntries(messages) as Record<string, Record<string, string>>,
      savedForm: savedFormFile(),
    };
  };
  return {
    name: "givekit:element-chunk-names",
    sharedDuringBuild: true,
    generateBundle(_options, bundle) {
      if (this.environment.name === "widget") {
        // For `npm run size` (the proxy does not serve it): what each kind of page loads.
        const imports = Object.entries(chunkImports).map(([name, loads]) => [tableKey(name), loads]);
        const source = JSON.stringify({ ...table(), imports: Object.fromEntries(imports) }, null, 2);
        this.emitFile({ type: "asset", fileName: CHUNK_TABLE_FILE, source });
        return;
      }
      const name = this.environment.name;
      if (!(name in ELEMENT_CHUNKS)) return;
      /** The later words fetched by their address (load-later.ts), by language. */
      const laterEntries: Record<string, string[]> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk" || !chunk.isEntry) continue;
        if (chunk.name.startsWith(`${LATER_WORDS}-`)) {
          laterEntries[chunk.name.slice(LATER_WORDS.length + 1)] = [chunk.fileName];
        } else if (chunk.name === name) {
          files[name] = chunk.fileName;
          const localeOf = (file: string) =>
            LOCALES.find((locale) => bundle[file]?.name?.endsWith(`-${locale}`));
          const isExtra = (file: string) => {
            const part = bundle[file];
            return part?.type === "chunk" && !part.facadeModuleId?.endsWith(LATER_ENTRY);
          };
          /** Lazy parts, with what they import in their turn (a module two of them share, in a chunk of its own). */
          const withImports = (parts: string[], besides = new Set<string>()) => {
            const all = new Set(parts);
            for (const file of all) {
              const part = bundle[file];
              if (part?.type !== "chunk") continue;
              for (const imported of part.imports)
                if (imported !== chunk.fileName && !besides.has(imported)) all.add(imported);
            }
            return all;
          };
          const savedForm = bundle[SAVED_FORM_FILE];
          if (savedForm?.type === "chunk") savedForms[name] = savedForm.code;
          const lazy = chunk.dynamicImports.filter((file) => !localeOf(file));
          const later = withImports(lazy.filter((file) => !isExtra(file)));
          const extras = withImports(lazy.filter(isExtra), later);
          chunkImports[name] = {
            imports: chunk.imports,
            later: [...later],
            extras: [...extras],
            laterMessages: Object.fromEntries(
              LOCALES.map((locale) => [
                locale,
                chunk.dynamicImports.filter((file) => localeOf(file) === locale),
              ]),
            ),
          };
        } else (messageFiles[name] ??= {})[chunk.name.slice(name.length + 1)] = chunk.fileName;
      }
      if (chunkImports[name]) Object.assign(chunkImports[name].laterMessages, laterEntries);
    },
    resolveId: (id) => (id === ELEMENT_CHUNKS_MODULE ? resolved : null),
    // widget.js's table: the chunks and catalogs it names by their versions (the files are chunks.json's).
    load: (id) => {
      if (id !== resolved) return null;
      const { elements, all } = table();
      const named = [...Object.entries(elements), ["all", all] as const].every(
        ([key, file]) => file === `assets/${key.replace("givekit-", "")}-${CODE_VERSION}.js`,
      );
      if (!named) throw new Error("An element chunk is not named by CODE_VERSION, as widget.js names it.");
      const chunks: ChunkTable = {
        elements: Object.keys(elements),
        version: CODE_VERSION,
        catalogs: CATALOG_VERSION,
      };
      return `export default ${JSON.stringify(chunks)};`;
    },
  };
}

/** The files a server sends as text, which compress. */
const TEXT_FILE = /\.(?:js|mjs|css|html|json|svg|txt)$/;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Beside each text file a server sends, its Brotli (quality 11) and gzip (level 9) forms,
 * `x.js.br` and `x.js.gz`, which the proxy and the demo server pick from by Accept-Encoding
 * (http/precompressed.ts): compressed once here, never per request. A sibling that would not
 * be smaller is not written (the file goes as it is). Not for chunks.json, which no server
 * sends, nor the demo's HTML, which its server fills in with the proxy's URL before sending.
 */
function precompress(): Plugin {
  return {
    name: "givekit:precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      const demo = this.environment.name === "client";
      const served = Object.keys(bundle).filter(
        (name) =>
          TEXT_FILE.test(name) &&
          !isSiblingName(name) &&
          name !== CHUNK_TABLE_FILE &&
          !(demo && name.endsWith(".html")),
      );
      await Promise.all(
        served.map(async (name) => {
          const path = join(dir, name);
          const bytes = await readFile(path);
          const [br, gz] = await Promise.all([
            brotliAsync(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzipAsync(bytes, { level: GZIP_LEVEL }),
          ]);
          if (br.length < bytes.length) await writeFile(`${path}.br`, br);
          if (gz.length < bytes.length) await writeFile(`${path}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [
    preact(),
    classicJsx(),
    plainDynamicImports(),
    pluralInEachCatalog(),
    placeFrameHtml(),
    elementChunkNames(),
    precompress(),
  ],
  builder: {
    async buildApp(builder) {
      await rm(WIDGET_DIR, { recursive: true, force: true });
      for (const name of [
        ...Object.keys(ELEMENT_CHUNKS),
        "widget",
        "module",
        "frame",
        "display",
        "dashboard",
        "designer",
        "client",
      ]) {
        await builder.build(builder.environments[name]!);
      }
    },
  },
  // The catalogs' version, for a chunk to name a catalog fetched after it (widget/donate/load-later.ts).
  define: { __GIVEKIT_CATALOGS__: JSON.stringify(CATALOG_VERSION) },
  build: { outDir: "dist/demo", emptyOutDir: true },
  environments: {
    client: {},
    widget: {
      consumer: "client",
      build: widgetBuild({
        rolldownOptions: {
          input: "widget/script-tag.ts",
          output: { format: "iife", entryFileNames: "widget.js" },
        },
      }),
    },
    module: {
      consumer: "client",
      build: widgetBuild({
        rolldownOptions: {
          input: "widget/index.ts",
          preserveEntrySignatures: "strict",
          output: { format: "es", entryFileNames: "givekit.js", codeSplitting: false },
        },
      }),
    },
    ...Object.fromEntries(
      Object.entries(ELEMENT_CHUNKS).map(([name, entry]) => [
        name,
        {
          consumer: "client",
          build: widgetBuild({
            rolldownOptions: {
              // The element's code, and beside it its catalog in each language (widget/chunks/messages/NAME-LOCALE.ts).
              input: {
                [name]: entry,
                ...Object.fromEntries(
                  LOCALES.map((locale) => [
                    `${name}-${locale}`,
                    `widget/chunks/messages/${name}-${locale}.ts`,
                  ]),
                ),
                // The form's later words in a language but English, fetched by their address (load-later.ts).
                ...(name === "donate"
                  ? Object.fromEntries(
                      LATER_LOCALES.map((locale) => [
                        `${LATER_WORDS}-${locale}`,
                        `widget/chunks/messages/${LATER_WORDS}-${locale}.ts`,
                      ]),
                    )
                  : {}),
              },
              // An entry may export more than define(): what its lazy parts share with it, so they stay in it.
              preserveEntrySignatures: "allow-extension",
              output: {
                format: "es",
                // The element's code and its lazy parts by their build's version; its catalogs by
                // theirs, as widget.js names them.
                entryFileNames: (chunk) =>
                  chunk.name === name
                    ? `assets/[name]-${CODE_VERSION}.js`
                    : `assets/[name]-${CATALOG_VERSION}.js`,
                // A part two builds both have (the rest of the form, in donate's and all's) is a file each.
                chunkFileNames: (chunk) =>
                  chunk.facadeModuleId?.endsWith(SAVED_FORM_ENTRY)
                    ? SAVED_FORM_FILE
                    : `assets/[name]-${name[0]}${CODE_VERSION.slice(1)}.js`,
              },
            },
          }),
        },
      ]),
    ),
    frame: {
      consumer: "client",
      build: widgetBuild({
        rolldownOptions: {
          // The frame's page, and beside its script its words in each language but English (start.ts).
          input: [FRAME_HTML_SOURCE, ...LATER_LOCALES.map((locale) => `widget/i18n/frame-${locale}.ts`)],
          preserveEntrySignatures: "allow-extension",
          output: {
            // The frame's script by its hash; its catalogs by their version, as start.ts names them.
            entryFileNames: (chunk) =>
              chunk.name.startsWith("frame-")
                ? `assets/[name]-${CATALOG_VERSION}.js`
                : "assets/[name]-[hash].js",
          },
        },
      }),
    },
    dashboard: {
      consumer: "client",
      build: widgetBuild({
        cssCodeSplit: false,
        rolldownOptions: {
          input: { dashboard: "widget/dashboard/client.tsx" },
          output: {
            format: "es",
            entryFileNames: "dashboard/[name].js",
            assetFileNames: "dashboard/dashboard[extname]",
          },
        },
      }),
    },
    designer: {
      consumer: "client",
      build: widgetBuild({
        cssCodeSplit: false,
        rolldownOptions: {
          input: { forms: "widget/dashboard/forms/forms.tsx" },
          output: {
            format: "es",
            entryFileNames: "dashboard/[name].js",
            assetFileNames: "dashboard/forms[extname]",
          },
        },
      }),
    },
    display: {
      consumer: "client",
      build: widgetBuild({
        cssCodeSplit: false,
        rolldownOptions: {
          input: { display: "widget/display/client.ts" },
          output: {
            format: "es",
            entryFileNames: "display/[name].js",
            assetFileNames: "display/display[extname]",
          },
        },
      }),
    },
  },
});
