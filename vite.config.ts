import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { preact } from "@preact/preset-vite";
import { defineConfig, type BuildEnvironmentOptions, type Plugin } from "vite";

/**
 * `vite build` builds four things, one Vite environment each:
 *   widget  → dist/widget/widget.js       the script-tag file (IIFE), defines both elements
 *   module  → dist/widget/givekit.js      the ES module: defineElements(), mount()
 *   frame   → dist/widget/frame/card.html the card frame page, its script in dist/widget/assets/
 *   client  → dist/demo/                  the demo campaign page (index.html, Vite's root)
 */
const WIDGET_DIR = "dist/widget";
const FRAME_HTML_SOURCE = "widget/frame/card.html";
const FRAME_HTML_OUTPUT = "frame/card.html";
const PHONE_LITE = "widget/shared/phone-lite.ts";
const PHONE_METADATA = /libphonenumber-js\/metadata\.min\.json\.js$/;
const PHONE_METADATA_JSON = "node_modules/libphonenumber-js/metadata.min.json";
/** The North American Numbering Plan: every country the US/Canada number rules must tell apart. */
const NANP_CALLING_CODE = "1";
/** Where a country's leading digits (its area codes) sit in libphonenumber-js's min metadata. */
const LEADING_DIGITS = 10;

const widgetBuild = (options: BuildEnvironmentOptions): BuildEnvironmentOptions => ({
  outDir: WIDGET_DIR,
  emptyOutDir: false,
  copyPublicDir: false,
  modulePreload: false,
  target: "es2022",
  ...options,
});

/** A country's metadata with its leading digits kept and every other entry zeroed. */
function areaCodesOnly(entry: unknown[]): unknown[] {
  return entry.map((value, index) => (index === LEADING_DIGITS ? value : 0));
}

/**
 * Phone numbers are US and Canadian only, and in the bundles libphonenumber-js/min is
 * replaced by widget/shared/phone-lite.ts, which reads nothing of the metadata but the area
 * codes of the other +1 countries (so that Jamaica or the Bahamas are recognized and
 * refused). The bundles carry just that instead of the whole world's metadata.
 */
function trimPhoneMetadata(): Plugin {
  return {
    name: "givekit:trim-phone-metadata",
    enforce: "pre",
    load(id) {
      if (!PHONE_METADATA.test(id)) return null;
      const full = JSON.parse(readFileSync(new URL(PHONE_METADATA_JSON, import.meta.url), "utf8"));
      const countries: string[] = full.country_calling_codes[NANP_CALLING_CODE];
      const trimmed = {
        version: full.version,
        country_calling_codes: { [NANP_CALLING_CODE]: countries },
        countries: Object.fromEntries(countries.map((code) => [code, areaCodesOnly(full.countries[code])])),
        nonGeographic: {},
      };
      return `export default ${JSON.stringify(trimmed)};`;
    },
  };
}

/**
 * JSX as Preact's own `h(type, props, ...children)` calls rather than the automatic runtime's
 * `jsx(type, { ...props, children })`: the same elements in fewer bytes. Listed after preact(),
 * whose JSX setting it replaces, and for builds only (the tests keep the preset's).
 */
function classicJsx(): Plugin {
  return {
    name: "givekit:classic-jsx",
    apply: "build",
    config: () => ({
      oxc: {
        jsx: { runtime: "classic", pragma: "h", pragmaFrag: "Fragment" },
        jsxInject: 'import { h, Fragment } from "preact";',
      },
    }),
  };
}

/** Vite names an HTML page after its path from the root; the proxy serves it as frame/card.html. */
function placeFrameHtml(): Plugin {
  return {
    name: "givekit:place-frame-html",
    enforce: "post",
    applyToEnvironment: (environment) => environment.name === "frame",
    generateBundle(_options, bundle) {
      const page = bundle[FRAME_HTML_SOURCE];
      if (page?.type !== "asset") return;
      delete bundle[FRAME_HTML_SOURCE];
      this.emitFile({ type: "asset", fileName: FRAME_HTML_OUTPUT, source: page.source });
    },
  };
}

export default defineConfig({
  plugins: [preact(), classicJsx(), trimPhoneMetadata(), placeFrameHtml()],
  resolve: {
    // The +1-only stand-in for libphonenumber-js (see widget/shared/phone-lite.ts).
    alias: [
      { find: /^libphonenumber-js\/min$/, replacement: fileURLToPath(new URL(PHONE_LITE, import.meta.url)) },
    ],
  },
  builder: {
    async buildApp(builder) {
      await rm(WIDGET_DIR, { recursive: true, force: true });
      for (const name of ["widget", "module", "frame", "client"]) {
        await builder.build(builder.environments[name]!);
      }
    },
  },
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
    frame: {
      consumer: "client",
      build: widgetBuild({ rolldownOptions: { input: FRAME_HTML_SOURCE } }),
    },
  },
});
