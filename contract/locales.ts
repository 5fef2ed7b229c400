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

/**
 * The language givekit speaks for a tag, regional variants falling back to their language
 * ("fr-CA" → "fr", "pt" → "pt-BR", "zh-TW" → "zh-Hant", "zh-CN" → "zh-Hans", "fil" → "tl"),
 * or null for a language it does not speak or a malformed tag (one Intl.Locale refuses: the
 * browser's own reading of BCP 47, rather than a pattern of ours in every page's widget.js).
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  try {
    const parsed = new Intl.Locale(tag!.trim());
    const { language } = parsed;
    // Chinese by its script, given or likely for the region ("zh-TW" is written in Traditional).
    const locale =
      language === "zh"
        ? `zh-${parsed.maximize().script}`
        : language === "pt"
          ? "pt-BR"
          : language === "fil"
            ? "tl"
            : language;
    return LOCALES.find((known) => known === locale) ?? null;
  } catch {
    return null;
  }
}
