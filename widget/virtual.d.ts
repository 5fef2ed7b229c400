/** Written by vite.config.ts from the element builds: where widget.js finds each chunk. */
declare module "virtual:givekit/element-chunks" {
  const chunks: import("./loader").ChunkTable;
  export default chunks;
}

/** The catalogs' version, in their file names (vite.config.ts's CATALOG_VERSION). */
declare const __GIVEKIT_CATALOGS__: string;
