import roomCss from "./room.css?inline";

let reserved = false;

/**
 * Adopts room.css into the page once: the room a form takes before it is drawn. A constructed
 * sheet, as in the elements (styles.ts), so a page's CSP needs no `style-src 'unsafe-inline'`.
 */
export function reserveRoom(): void {
  if (reserved || typeof CSSStyleSheet === "undefined" || !("adoptedStyleSheets" in document)) return;
  reserved = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(roomCss);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
