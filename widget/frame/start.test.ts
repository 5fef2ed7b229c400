import { afterEach, describe, expect, it } from "vitest";
import { applyTheme } from "./start";

const root = document.documentElement;
afterEach(() => {
  root.removeAttribute("style");
  delete root.dataset.themed;
});

describe("the card frame takes the page's look", () => {
  it("sets the plain values it is sent, marks itself themed, and keeps its own for the rest", () => {
    applyTheme({ accent: "#b00", size: "18px", font: "Georgia, serif" });
    expect(root.style.getPropertyValue("--accent")).toBe("#b00");
    expect(root.style.getPropertyValue("font-size")).toBe("18px");
    expect(root.style.getPropertyValue("--font")).toBe("Georgia, serif");
    expect(root.style.getPropertyValue("--radius")).toBe("");
    expect(root.dataset.themed).toBe("");
  });

  it("refuses what is not a plain value (a url(), a declaration's end), and a later look replaces an earlier one", () => {
    applyTheme({ accent: "#b00", text: "red" });
    applyTheme({ accent: "url(https://evil.example/x)", text: "red; background: red" });
    expect(root.style.getPropertyValue("--accent")).toBe("");
    expect(root.style.getPropertyValue("--text")).toBe("");
  });
});
