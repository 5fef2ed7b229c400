import { INTL_TAGS, LOCALES, matchLocale, RTL_LOCALES, type Locale } from "../../contract/locales";
import type { en } from "./en";

/** The languages givekit speaks (contract/locales.ts); each element chunk has a catalog in each beside it (vite.config.ts). */
export { LOCALES, type Locale };
export type Messages = typeof en;
/**
 * What a language's catalog holds for one bundle: the sections its elements show. widget.js
 * loads each element chunk's own (widget/chunks/messages/), beside the chunk; givekit.js has
 * every section of both languages inside (bundled.ts).
 */
export type Catalog = Partial<Messages>;
/** Gives a language's catalog; asked once per language. */
export type MessageSource = (locale: Locale) => Promise<Catalog>;

let source: MessageSource | null = null;
const loaded: Partial<Record<Locale, Catalog>> = {};
const loading: Partial<Record<Locale, Promise<Catalog>>> = {};

/**
 * Where this bundle's messages come from. Set once, before an element renders: by widget.js
 * through each chunk's define(), by givekit.js to its own copy.
 *
 * @example
 * useMessageSource((locale) => import(`./messages-${locale}.js`).then((module) => module.messages));
 */
export function useMessageSource(next: MessageSource): void {
  source = next;
}

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** A language givekit speaks, as chooseLocale() gives it; English when it is missing or unknown. */
export function localeOf(locale: string | null | undefined): Locale {
  return locale && isLocale(locale) ? locale : "en";
}

const warned = new Set<string>();
/** Says a page's mistake once in the console, however many elements or renders repeat it. */
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[givekit] ${message}`);
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
export function chooseLocale(element: Pick<Element, "getAttribute">): Locale {
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
      if (!locale && tag.trim()) warnOnce(`locales names "${tag.trim()}", a language givekit does not speak.`);
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
}

/**
 * Loads a language's messages (once), so that messagesFor() can give them.
 *
 * @example
 * await loadMessages(host.getAttribute("locale"));
 */
export function loadMessages(locale: string | null | undefined): Promise<Messages> {
  const language = localeOf(locale);
  if (!source) return Promise.reject(new Error("[givekit] no message source: useMessageSource() first."));
  const load = source;
  const catalog = (loading[language] ??= load(language).then(
    (messages) => (loaded[language] = messages),
    (error: unknown) => {
      // A failed fetch (a network blip) may be tried again by the next render.
      delete loading[language];
      if (language === "en") throw error;
      // Another language that does not come: the form speaks English rather than nothing.
      warnOnce(`the "${language}" messages could not be loaded: showing English.`);
      return loadMessages("en").then((english) => (loaded[language] ??= { ...english }));
    },
  ));
  return catalog as Promise<Messages>;
}

/**
 * The loaded catalog for a `locale` attribute (English when it is missing or unknown), or null.
 * Typed whole: an element reads only the sections its own chunk's catalog carries.
 */
export function loadedMessages(locale: string | null | undefined): Messages | null {
  return (loaded[localeOf(locale)] as Messages | undefined) ?? null;
}

/**
 * Adds a catalog fetched after the first (what a part of an element loaded later says) to a
 * language's loaded messages. A language that has `section` already (givekit.js's catalogs, the
 * `all` chunk's) fetches nothing.
 *
 * @example
 * await addMessages("es", "donateLater", () => import("./donate-later-es.js"));
 */
export async function addMessages(
  locale: Locale,
  section: keyof Messages,
  load: () => Promise<{ messages: Catalog }>,
): Promise<void> {
  if (loaded[locale]?.[section]) return;
  const { messages } = await load();
  Object.assign((loaded[locale] ??= {}), messages);
}

/** The catalog for a `locale` attribute, which loadMessages() has loaded: elements render after it. */
export function messagesFor(locale: string | null | undefined): Messages {
  const messages = loadedMessages(locale);
  if (!messages) throw new Error(`[givekit] the "${localeOf(locale)}" messages are not loaded yet.`);
  return messages;
}

/** Whether a language is written right to left (its element's root takes `dir="rtl"`). */
export function isRtl(locale: Locale): boolean {
  return RTL_LOCALES.includes(locale);
}

/** The tag Intl formats a language's money, numbers and dates with. */
export function intlTag(locale: Locale): string {
  return INTL_TAGS[locale];
}
