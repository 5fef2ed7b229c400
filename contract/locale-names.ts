import type { Locale } from "./locales";

/**
 * Each language's name in itself, for the form's language switch and the dashboard's choice: a
 * module of its own, so only what shows the names carries them (not every English form).
 */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  "pt-BR": "Português",
  "zh-Hans": "简体中文",
  "zh-Hant": "繁體中文",
  vi: "Tiếng Việt",
  tl: "Tagalog",
  ko: "한국어",
  ar: "العربية",
  ru: "Русский",
  ht: "Kreyòl ayisyen",
};
