import { en } from "./en";
import { es } from "./es";

export type Locale = "en" | "es";
export type Messages = typeof en;

const catalogs: Record<Locale, Messages> = { en, es };

export function isLocale(value: string): value is Locale {
  return value === "en" || value === "es";
}

/** The catalog for a `locale` attribute; English when it is missing or unknown. */
export function messagesFor(locale: string | null | undefined): Messages {
  return catalogs[locale && isLocale(locale) ? locale : "en"];
}
