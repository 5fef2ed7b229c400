import { describe, expect, it } from "vitest";
import { addStyles } from "./styles";

/** An element's shadow root with its own sheet, as define-element.tsx makes it, and a part inside. */
function shadowWithPart() {
  const host = document.createElement("div");
  document.body.append(host);
  const shadow = host.attachShadow({ mode: "open" });
  const own = new CSSStyleSheet();
  own.replaceSync(".gk-root { display: block; }");
  shadow.adoptedStyleSheets = [own];
  const part = document.createElement("fieldset");
  shadow.append(part);
  return { shadow, own, part };
}

const texts = (sheets: readonly CSSStyleSheet[]) =>
  sheets.map((sheet) => [...sheet.cssRules].map((rule) => rule.cssText).join(" "));

describe("a part's own styles, added as it shows", () => {
  it("join the element's sheet in its shadow root, once however often the part renders", () => {
    const { shadow, own, part } = shadowWithPart();
    addStyles(part, ".gk-prompt { padding: 0.75em; }");
    addStyles(part, ".gk-prompt { padding: 0.75em; }");
    expect(shadow.adoptedStyleSheets[0]).toBe(own);
    expect(texts(shadow.adoptedStyleSheets)).toEqual([
      ".gk-root { display: block; }",
      ".gk-prompt { padding: 0.75em; }",
    ]);
  });

  it("one sheet for every form on the page", () => {
    const first = shadowWithPart();
    const second = shadowWithPart();
    addStyles(first.part, ".gk-prompt { float: left; }");
    addStyles(second.part, ".gk-prompt { float: left; }");
    expect(first.shadow.adoptedStyleSheets).toHaveLength(2);
    expect(first.shadow.adoptedStyleSheets[1]).toBe(second.shadow.adoptedStyleSheets[1]);
  });

  it("outside a shadow root, or for a part gone (a ref called with null), nothing", () => {
    const part = document.createElement("fieldset");
    document.body.append(part);
    expect(() => addStyles(part, ".gk-prompt { float: left; }")).not.toThrow();
    expect(document.adoptedStyleSheets).toEqual([]);
    expect(() => addStyles(null, ".gk-prompt { float: left; }")).not.toThrow();
  });
});
