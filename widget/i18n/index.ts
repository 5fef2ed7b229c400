import type { en } from "./en";

/** The languages givekit speaks; each element chunk has a catalog in each beside it (vite.config.ts). */
export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
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

/** A `locale` attribute's language; English when it is missing or unknown. */
export function localeOf(locale: string | null | undefined): Locale {
  return locale && isLocale(locale) ? locale : "en";
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
  const catalog = (loading[language] ??= source(language).then(
    (messages) => (loaded[language] = messages),
    (error: unknown) => {
      // A failed fetch (a network blip) may be tried again by the next render.
      delete loading[language];
      throw error;
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
