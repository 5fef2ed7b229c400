import hostCss from "./host.css?inline";

const sheets = new Map<string, CSSStyleSheet>();

/**
 * Adopts the element's box (host.css) and its own styles as one constructed style sheet, shared
 * by every element of a kind. A page's Content-Security-Policy does not apply to constructed
 * sheets, so no `style-src 'unsafe-inline'` is needed (a `<style>` element would need it).
 */
export function adoptStyles(shadow: ShadowRoot, css: string): void {
  const text = hostCss + css;
  let sheet = sheets.get(text);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    sheets.set(text, sheet);
  }
  shadow.adoptedStyleSheets = [sheet];
}
