/**
 * The languages givekit speaks: the widget's elements, its card frame and the room display, and
 * what the staff dashboard offers a form. One list, read by the widget (widget/i18n), the build
 * (vite.config.ts: a catalog per element and language), the proxy (the display's `locale`, a
 * consent's language) and the dashboard (with each one's name in itself: locale-names.ts).
 */
export const LOCALES = [
  "en",
  "es",
  "fr",
  "pt-BR",
  "zh-Hans",
  "zh-Hant",
  "vi",
  "tl",
  "ko",
  "ar",
  "ru",
  "ht",
] as const;
export type Locale = (typeof LOCALES)[number];

/** The languages written right to left. */
export const RTL_LOCALES: readonly Locale[] = ["ar"];

/** Where the family name comes first: one full-name field by default (`fields="full-name"`). */
export const FULL_NAME_LOCALES: readonly Locale[] = ["zh-Hans", "zh-Hant", "ko"];

/**
 * The tag Intl formats a language's money, numbers and dates with, where it is not the
 * language's own: US conventions for Spanish ("$26.05"), Filipino's data for Tagalog, French's
 * for Haitian Creole (which Intl does not know).
 */
export const INTL_TAGS: Partial<Record<Locale, string>> = { es: "es-US", tl: "fil", ht: "fr-HT" };

/** A BCP 47 tag, as `lang` and `locale` hold one: "fr", "pt-BR", "zh-Hant-TW". */
const TAG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;

/**
 * The language givekit speaks for a tag, regional variants falling back to their language
 * ("fr-CA" → "fr", "pt" → "pt-BR", "zh-TW" → "zh-Hant", "zh-CN" → "zh-Hans", "fil" → "tl"),
 * or null for a language it does not speak or a malformed tag.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  const value = tag?.trim();
  if (!value || !TAG.test(value)) return null;
  const parts = value.toLowerCase().split("-");
  const language = parts[0]!;
  if (language === "zh") {
    const traditional = parts.includes("hant") || parts.some((part) => ["tw", "hk", "mo"].includes(part));
    return traditional ? "zh-Hant" : "zh-Hans";
  }
  if (language === "pt") return "pt-BR";
  if (language === "fil") return "tl";
  return LOCALES.find((locale) => locale === language) ?? null;
}
