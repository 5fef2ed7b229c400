import { LOCALES, matchLocale, type Locale } from "../../contract/locales";
import type { LocaleChooser } from ".";
import { warnOnce } from "./warn";

/**
 * The language an attribute's tag names, or null, said once in the console when givekit does not
 * speak it: one wording for `locale` and `locales`, as widget.js carries this chooser, every byte
 * of it paid by every page, in English too.
 */
function known(name: string, tag: string): Locale | null {
  const locale = matchLocale(tag);
  if (!locale && tag.trim())
    warnOnce(
      `${name} names "${tag.trim()}", not a language givekit speaks (${LOCALES.join(", ")}): passed over.`,
    );
  return locale;
}

/**
 * The language an element speaks: its `locale` attribute when givekit speaks it; else the page's
 * `<html lang>` when givekit speaks it; else the first of the browser's languages among those
 * the element allows (`locales="en,es,vi"`, all by default); else English. Regional variants
 * fall back to their language (contract/locales.ts). An unknown `locale` or `locales` entry is
 * said once in the console and passed over; a malformed page `lang` is ignored.
 *
 * @example
 * chooseLocale(element); // "vi" on a page without `lang`, for a browser reading vi-VN
 */
export const chooseLocale: LocaleChooser = (element) => {
  const get = (name: string) => element.getAttribute(name);
  const asked = get("locale");
  const locale = asked === null ? null : known("locale", asked);
  if (locale) return locale;
  const listed = get("locales")
    ?.split(",")
    .flatMap((tag) => known("locales", tag) ?? []);
  const allowed: readonly Locale[] = listed?.length ? listed : LOCALES;
  const page = matchLocale(document.documentElement.lang);
  if (page) return page;
  for (const tag of navigator.languages) {
    const browser = matchLocale(tag);
    if (browser && allowed.includes(browser)) return browser;
  }
  return allowed.includes("en") ? "en" : allowed[0]!;
};
