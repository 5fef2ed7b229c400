import { describe, expect, it, vi } from "vitest";
import type { Catalog } from ".";
import { donateEn } from "./donate-en";
import { donateLaterEn } from "./donate-later-en";
import { commonEn } from "./en";

/** A fresh copy of the message registry (the dom tests' own has every section of both languages). */
async function freshRegistry() {
  vi.resetModules();
  return import("./index");
}

describe("addMessages: words fetched after the first catalog", () => {
  it("adds a section to a language loaded without it, once", async () => {
    const i18n = await freshRegistry();
    // A donate chunk's English catalog: the first step's words.
    i18n.useMessageSource(async () => ({ common: commonEn, donate: donateEn }));
    await i18n.loadMessages("en");
    expect(i18n.messagesFor("en").donateLater).toBeUndefined();

    const load = vi.fn<() => Promise<{ messages: Catalog }>>(async () => ({
      messages: { donateLater: donateLaterEn },
    }));
    await i18n.addMessages("en", "donateLater", load);
    expect(i18n.messagesFor("en").donateLater.cardLegend).toBe("Card");
    expect(i18n.messagesFor("en").donate.next).toBe("Next");
    await i18n.addMessages("en", "donateLater", load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("fetches nothing for a language whose catalog has the section already (givekit.js's, the all chunk's)", async () => {
    const i18n = await freshRegistry();
    const { en } = await import("./en");
    i18n.useMessageSource(async () => en);
    await i18n.loadMessages("en");
    const load = vi.fn<() => Promise<{ messages: Catalog }>>(async () => ({
      messages: { donateLater: donateLaterEn },
    }));
    await i18n.addMessages("en", "donateLater", load);
    expect(load).not.toHaveBeenCalled();
  });

  it("a failed fetch adds nothing and may be tried again", async () => {
    const i18n = await freshRegistry();
    i18n.useMessageSource(async () => ({ common: commonEn, donate: donateEn }));
    await i18n.loadMessages("en");
    await expect(
      i18n.addMessages("en", "donateLater", async () => {
        throw new TypeError("Failed to fetch");
      }),
    ).rejects.toThrow("Failed to fetch");
    expect(i18n.messagesFor("en").donateLater).toBeUndefined();
    await i18n.addMessages("en", "donateLater", async () => ({ messages: { donateLater: donateLaterEn } }));
    expect(i18n.messagesFor("en").donateLater.cardFrameTitle).toBe("Card details");
  });
});

describe("loadMessages: a language whose catalog does not come", () => {
  it("falls back to English, the form usable, and says so once", async () => {
    const i18n = await freshRegistry();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    i18n.useMessageSource(async (locale) => {
      if (locale === "fr") throw new TypeError("Failed to fetch");
      return { common: commonEn, donate: donateEn };
    });
    const messages = await i18n.loadMessages("fr");
    expect(messages.donate.next).toBe("Next");
    expect(i18n.messagesFor("fr").donate.heading).toBe("Make a donation");
    expect(warn.mock.calls.map(([text]) => text)).toEqual([
      '[givekit] the "fr" messages could not be loaded: showing English.',
    ]);
    warn.mockRestore();
  });

  it("English that does not come is an error the element shows as such", async () => {
    const i18n = await freshRegistry();
    i18n.useMessageSource(async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(i18n.loadMessages("en")).rejects.toThrow("Failed to fetch");
  });
});

describe("a page's own words (window.givekitMessages), per language and key", () => {
  it("take the place of givekit's in their language only, the parts loaded later too; an unknown key is said once", async () => {
    const i18n = await freshRegistry();
    const { es } = await import("./es");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubGlobal("givekitMessages", {
      es: {
        "donate.heading": "Done hoy",
        "donateLater.outcome.successTitle": "¡Gracias, de corazón!",
        "donate.headin": "typo",
        "donat.heading": "typo",
        "donate.amountRange": "built from values",
      },
    });
    // Copies: the catalogs' own objects are shared by every test.
    i18n.useMessageSource(async (locale) =>
      locale === "es"
        ? { common: { ...es.common }, donate: { ...es.donate } }
        : { common: commonEn, donate: donateEn },
    );
    expect((await i18n.loadMessages("es")).donate.heading).toBe("Done hoy");
    expect((await i18n.loadMessages("en")).donate.heading).toBe("Make a donation");
    await i18n.addMessages("es", "donateLater", async () => ({
      messages: { donateLater: { ...es.donateLater, outcome: { ...es.donateLater.outcome } } },
    }));
    expect(i18n.messagesFor("es").donateLater.outcome.successTitle).toBe("¡Gracias, de corazón!");
    // Words built from values keep givekit's.
    expect(i18n.messagesFor("es").donate.amountRange("$1", "$2")).toContain("$1");
    expect(warn.mock.calls.map(([text]) => text).toSorted()).toEqual([
      '[givekit] givekitMessages.es names "donat.heading", not one of givekit\'s texts: passed over.',
      '[givekit] givekitMessages.es names "donate.amountRange", not one of givekit\'s texts: passed over.',
      '[givekit] givekitMessages.es names "donate.headin", not one of givekit\'s texts: passed over.',
    ]);
    vi.unstubAllGlobals();
    warn.mockRestore();
  });
});
