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

/** A BCP 47 tag, as `lang` and `locale` hold one: "fr", "pt-BR", "zh-Hant-TW". */
const TAG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;

/**
 * The language givekit speaks for a tag, regional variants falling back to their language
 * ("fr-CA" → "fr", "pt" → "pt-BR", "zh-TW" → "zh-Hant", "zh-CN" → "zh-Hans", "fil" → "tl"),
 * or null for a language it does not speak or a malformed tag.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  const value = tag?.trim().toLowerCase();
  if (!value || !TAG.test(value)) return null;
  const language = value.split("-")[0]!;
  if (language === "zh") return /-(hant|tw|hk|mo)\b/.test(value) ? "zh-Hant" : "zh-Hans";
  return language === "pt"
    ? "pt-BR"
    : language === "fil"
      ? "tl"
      : (LOCALES.find((locale) => locale === language) ?? null);
}
