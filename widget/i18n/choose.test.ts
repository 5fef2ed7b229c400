import { afterEach, describe, expect, it, vi } from "vitest";
import { matchLocale } from "../../contract/locales";

/** A fresh chooser (its once-only warnings forgotten), and an element with these attributes. */
async function setup(attributes: Record<string, string>, page = "", browser = ["en-US"]) {
  vi.resetModules();
  document.documentElement.lang = page;
  vi.spyOn(navigator, "languages", "get").mockReturnValue(browser);
  const { chooseLocale } = await import("./choose");
  const element = document.createElement("givekit-donate");
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return () => chooseLocale(element);
}

afterEach(() => {
  document.documentElement.lang = "";
  vi.restoreAllMocks();
});

describe("matchLocale: regional variants fall back to their language", () => {
  it.each([
    ["fr-CA", "fr"],
    ["pt", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["zh", "zh-Hans"],
    ["zh-CN", "zh-Hans"],
    ["zh-TW", "zh-Hant"],
    ["zh-HK", "zh-Hant"],
    ["zh-Hant-TW", "zh-Hant"],
    ["zh-Hans-HK", "zh-Hans"],
    [" es-MX ", "es"],
    ["fil-PH", "tl"],
    ["AR", "ar"],
    ["ht-HT", "ht"],
    ["de", null],
    ["en_US", null],
    ["not a tag", null],
    ["", null],
  ])("%s → %s", (tag, locale) => {
    expect(matchLocale(tag)).toBe(locale);
  });
});

describe("chooseLocale: attribute, page, browser among the allowed, English", () => {
  it("takes the locale attribute first", async () => {
    expect((await setup({ locale: "vi" }, "fr", ["ko"]))()).toBe("vi");
  });

  it("else the page's lang when givekit speaks it", async () => {
    expect((await setup({}, "fr-CA", ["ko"]))()).toBe("fr");
  });

  it("ignores a malformed page lang and takes the browser's first allowed language", async () => {
    expect((await setup({ locales: "en,es,vi" }, "en_US!", ["ko-KR", "vi-VN", "es"]))()).toBe("vi");
  });

  it("else English, or the first allowed when English is not", async () => {
    expect((await setup({}, "", ["de-DE"]))()).toBe("en");
    expect((await setup({ locales: "es,vi" }, "", ["de-DE"]))()).toBe("es");
  });

  it("passes over an unknown locale and locales entry, saying each once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const choose = await setup({ locale: "klingon", locales: "xx,ru" }, "", ["ru-RU"]);
    expect([choose(), choose(), choose()]).toEqual(["ru", "ru", "ru"]);
    expect(warn.mock.calls.map(([text]) => text)).toEqual([
      expect.stringMatching(/^\[givekit\] locale names "klingon", not a language givekit speaks \(en, es, /),
      expect.stringMatching(/^\[givekit\] locales names "xx", not a language givekit speaks/),
    ]);
  });
});
