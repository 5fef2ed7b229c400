import { rm } from "node:fs/promises";
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
  plugins: [preact(), classicJsx(), placeFrameHtml()],
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
