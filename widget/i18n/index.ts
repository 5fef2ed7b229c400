import type { en } from "./en";

export type Locale = "en" | "es";
export type Messages = typeof en;

/**
 * Each language is a chunk of its own, loaded when an element in that language first renders:
 * an English page never fetches the Spanish messages.
 */
const loaders: Record<Locale, () => Promise<Messages>> = {
  en: () => import("./en").then((module) => module.en),
  es: () => import("./es").then((module) => module.es),
};
const loaded: Partial<Record<Locale, Messages>> = {};
const loading: Partial<Record<Locale, Promise<Messages>>> = {};

export function isLocale(value: string): value is Locale {
  return value === "en" || value === "es";
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
  return (loading[language] ??= loaders[language]().then(
    (messages) => (loaded[language] = messages),
    (error: unknown) => {
      // A failed fetch (a network blip) may be tried again by the next render.
      delete loading[language];
      throw error;
    },
  ));
}

/** The loaded catalog for a `locale` attribute (English when it is missing or unknown), or null. */
export function loadedMessages(locale: string | null | undefined): Messages | null {
  return loaded[localeOf(locale)] ?? null;
}

/** The catalog for a `locale` attribute, which loadMessages() has loaded: elements render after it. */
export function messagesFor(locale: string | null | undefined): Messages {
  const messages = loadedMessages(locale);
  if (!messages) throw new Error(`[givekit] the "${localeOf(locale)}" messages are not loaded yet.`);
  return messages;
}
