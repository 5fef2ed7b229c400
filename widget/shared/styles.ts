import baseCss from "./base.css?inline";

const sheets = new Map<string, CSSStyleSheet>();

/** Adopts the shared and the element's own styles; a `<style>` where adoption is missing. */
export function adoptStyles(shadow: ShadowRoot, css: string): void {
  const text = baseCss + css;
  if (
    "adoptedStyleSheets" in shadow &&
    typeof CSSStyleSheet !== "undefined" &&
    "replaceSync" in CSSStyleSheet.prototype
  ) {
    let sheet = sheets.get(text);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      sheets.set(text, sheet);
    }
    shadow.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement("style");
  style.textContent = text;
  shadow.append(style);
}
