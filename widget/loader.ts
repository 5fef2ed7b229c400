/**
 * widget.js's whole job: watch the page for givekit's elements and load their code (ES module
 * chunks served by the proxy) when the first of each kind appears, already in the HTML or added
 * later by a script. An element present before its code arrives is upgraded by
 * customElements.define(), attributes and all.
 */

/** What every chunk exports (widget/chunks/): it defines its element(s). */
interface ElementChunk {
  define(): void | Promise<void>;
}

/** Where the chunks are, relative to widget.js: written by the build (vite.config.ts). */
export interface ChunkTable {
  /** Each element's tag → the chunk with its code alone. */
  elements: Record<string, string>;
  /** Every element in one chunk: smaller than two alone, each bringing its own Preact and zod. */
  all: string;
}

/**
 * @param base the URL widget.js was loaded from
 * @example
 * watchForElements({ elements: { "givekit-donate": "assets/donate-1a2b.js" }, all: "assets/all-3c4d.js" }, script.src);
 */
export function watchForElements(chunks: ChunkTable, base: string): void {
  const waiting = new Map(Object.entries(chunks.elements));
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node instanceof Element) load(node);
  });

  function fetchChunk(file: string, tags: string[]) {
    for (const tag of tags) waiting.delete(tag);
    if (waiting.size === 0) observer.disconnect();
    import(/* @vite-ignore */ new URL(file, base).href).then(
      (chunk: ElementChunk) => chunk.define(),
      () =>
        console.error(`[givekit] <${tags.join(">, <")}> could not be loaded from ${new URL(base).origin}.`),
    );
  }

  /** Loads the code of the elements found in `root` (one chunk for several kinds at once). */
  function load(root: Element | Document) {
    const found = [...waiting.keys()].filter(
      (tag) => (root instanceof Element && root.localName === tag) || root.querySelector(tag),
    );
    if (found.length > 1) fetchChunk(chunks.all, [...waiting.keys()]);
    else if (found[0]) fetchChunk(waiting.get(found[0])!, found);
  }

  observer.observe(document, { childList: true, subtree: true });
  load(document);
}
