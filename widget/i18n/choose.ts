import { LOCALES, matchLocale, type Locale } from "../../contract/locales";
import type { LocaleChooser } from ".";
import { warnOnce } from "./warn";

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
  if (asked !== null) {
    const locale = matchLocale(asked);
    if (locale) return locale;
    warnOnce(`locale="${asked}" is not a language givekit speaks (${LOCALES.join(", ")}): choosing another.`);
  }
  const listed = get("locales");
  let allowed: readonly Locale[] = LOCALES;
  if (listed !== null) {
    const known = listed.split(",").flatMap((tag) => {
      const locale = matchLocale(tag);
      if (!locale && tag.trim())
        warnOnce(`locales names "${tag.trim()}", a language givekit does not speak.`);
      return locale ? [locale] : [];
    });
    if (known.length > 0) allowed = known;
  }
  if (typeof document !== "undefined") {
    const page = matchLocale(document.documentElement.lang);
    if (page) return page;
  }
  const browser = typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of browser) {
    const locale = matchLocale(tag);
    if (locale && allowed.includes(locale)) return locale;
  }
  return allowed.includes("en") ? "en" : allowed[0]!;
};
