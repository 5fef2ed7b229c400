import { preact } from "@preact/preset-vite";
import { defineConfig } from "vite";

// The demo campaign page (index.html) is Vite's root; the widget build is configured in
// widget/ as it grows.
export default defineConfig({
  plugins: [preact()],
  build: { outDir: "dist/demo", emptyOutDir: true },
});
