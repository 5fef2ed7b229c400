import type { Locale } from "../../contract/locales";
import type { en } from "./en";
import { warnOnce } from "./warn";

/**
 * A page's own words for givekit's, by language and key, set before widget.js loads:
 *
 *   window.givekitMessages = { es: { "donate.heading": "Done hoy" }, en: { "donate.heading": "Give today" } };
 *
 * A key names one of the catalog's texts by its path (widget/i18n/en.ts: "donate.heading",
 * "donateLater.outcome.successTitle"); a language as givekit names it (contract/locales.ts).
 * Words built from values (an amount, a count) are not overridable.
 */
export type PageWords = Partial<Record<string, Record<string, unknown>>>;

/**
 * The catalog's sections (the compiler holds this to widget/i18n/en.ts's): a key outside them is
 * named at once, one inside them once its section has loaded. Not the English catalog itself,
 * which imported here would move out of each element's own catalog file into a file of its own.
 */
const SECTIONS: Record<keyof typeof en, true> = {
  common: true,
  donate: true,
  donateLater: true,
  optin: true,
  goal: true,
  button: true,
  wall: true,
  leaderboard: true,
};

type Tree = Record<string, unknown>;
/** A catalog as index.ts's loadMessages has it (its Catalog: some sections of en.ts's). */
type Catalog = Partial<typeof en>;

/**
 * `catalog` with the page's words for `locale` in place of givekit's, in the sections it holds (a
 * part of a form loaded later takes its own). A key that names none of givekit's texts, or a
 * value that is not text, is passed over with one console warning.
 *
 * @example
 * pageWords("es", { donate: donateEs }); // donate.heading as the page gives it
 */
export function pageWords(locale: Locale, catalog: Catalog): Catalog {
  const given = (globalThis as { givekitMessages?: PageWords }).givekitMessages?.[locale] ?? {};
  for (const [key, text] of Object.entries(given)) {
    const path = key.split(".");
    const name = path.pop()!;
    const held = Object.hasOwn(catalog, path[0]!);
    const section = path.reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], catalog) as
      | Tree
      | undefined;
    if (held && typeof section?.[name] === "string" && typeof text === "string") section[name] = text;
    else if (held || !Object.hasOwn(SECTIONS, path[0]!) || typeof text !== "string")
      warnOnce(`givekitMessages.${locale} names "${key}", not one of givekit's texts: passed over.`);
  }
  return catalog;
}
