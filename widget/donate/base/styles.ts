/** Each part's own sheet, made once and shared by every form on the page. */
const sheets = new Map<string, CSSStyleSheet>();

/**
 * Adds a part's own styles to the shadow root `node` is in, beside the element's (its first
 * sheet, shared/styles.ts): for a part that comes in a chunk of its own, whose styles the first
 * step need not load. Once per root; a constructed sheet, as the element's, so a page's
 * Content-Security-Policy needs no `style-src 'unsafe-inline'`. Called from a ref, it applies
 * before the part is first painted. Outside a shadow root (a component test) it does nothing.
 *
 * @example
 * <fieldset ref={(node) => addStyles(node, promptCss)}>…</fieldset>
 */
export function addStyles(node: Node | null, css: string): void {
  const root = node?.getRootNode();
  if (!(root instanceof ShadowRoot)) return;
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(css, sheet);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
