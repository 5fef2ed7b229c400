import formCss from "./base.css?inline";
import hostCss from "./host.css?inline";

const sheets = new Map<string, CSSStyleSheet>();

/**
 * Adopts the shared and the element's own styles as one constructed style sheet, shared by
 * every element of a kind. A page's Content-Security-Policy does not apply to constructed
 * sheets, so no `style-src 'unsafe-inline'` is needed (a `<style>` element would need it).
 * `forms: false` (the goal element) leaves out the forms' styles.
 */
export function adoptStyles(shadow: ShadowRoot, css: string, forms = true): void {
  const text = hostCss + (forms ? formCss : "") + css;
  let sheet = sheets.get(text);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    sheets.set(text, sheet);
  }
  shadow.adoptedStyleSheets = [sheet];
}
