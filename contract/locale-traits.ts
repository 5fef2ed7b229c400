import type { Locale } from "./locales";

// What sets the languages apart, apart from their list (locales.ts): an element's chunk reads
// these, and a list of every language it never needs stays in widget.js and the later chunks.

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
