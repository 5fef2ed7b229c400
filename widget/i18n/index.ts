import { INTL_TAGS, RTL_LOCALES } from "../../contract/locale-traits";
import type { Locale } from "../../contract/locales";
import { warnOnce } from "./warn";
import type { en } from "./en";

/** The languages givekit speaks (contract/locales.ts); each element chunk has a catalog in each beside it (vite.config.ts). */
export type { Locale };
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

/**
 * The language chooseLocale() gave (English when there is none): not checked against LOCALES again,
 * so an English form carries no list of languages (the chooser, in widget.js, has checked it; a
 * name no catalog has fails to load and the form speaks English, loadMessages()).
 */
export function localeOf(locale: string | null | undefined): Locale {
  return (locale || "en") as Locale;
}

/** How an element's language is chosen: set by widget.js and givekit.js (choose.ts). */
export type LocaleChooser = (element: Pick<Element, "getAttribute">) => Locale;

// Until one is set, the `locale` attribute alone (unchecked: localeOf): so an element chunk carries no chooser of its
// own, but takes widget.js's (widget/chunks/when-ready.ts), one copy per page.
let chooser: LocaleChooser = (element) => localeOf(element.getAttribute("locale"));

/** Sets how elements choose their language (widget/i18n/choose.ts's chooseLocale). */
export function useLocaleChooser(next: LocaleChooser): void {
  chooser = next;
}

/**
 * The language an element speaks (see choose.ts).
 *
 * @example
 * chooseLocale(element); // "vi" on a page without `lang`, for a browser reading vi-VN
 */
export function chooseLocale(element: Pick<Element, "getAttribute">): Locale {
  return chooser(element);
}

/**
 * A catalog with the page's own words in it (overrides.ts): their code fetched only by a page
 * that gives some (`window.givekitMessages`), so every other page carries none of it.
 */
function withPageWords(locale: Locale, catalog: Catalog): Catalog | Promise<Catalog> {
  return "givekitMessages" in globalThis
    ? import("./overrides").then((module) => module.pageWords(locale, catalog))
    : catalog;
}

/**
 * Loads a language's messages (once), so that messagesFor() can give them.
 *
 * @example
 * await loadMessages(host.getAttribute("locale"));
 */
export function loadMessages(locale: string | null | undefined): Promise<Messages> {
  const language = localeOf(locale);
  // useMessageSource() comes first (each chunk's define(), givekit.js): no check of it in every chunk.
  const catalog = (loading[language] ??= source!(language).then(
    async (messages) => (loaded[language] = await withPageWords(language, messages)),
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
  Object.assign((loaded[locale] ??= {}), await withPageWords(locale, messages));
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
  return INTL_TAGS[locale] ?? locale;
}

/**
 * Text that keeps its own direction inside a sentence (an amount, a phone number): set apart by
 * Unicode's first-strong isolate in a right-to-left language, so "$25.00" does not turn into
 * "25.00$" inside Arabic; as it is in the others.
 */
export function isolate(text: string, locale: Locale): string {
  return isRtl(locale) ? `\u2068${text}\u2069` : text;
}
