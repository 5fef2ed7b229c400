import type { Locale } from "../i18n";

/** Cents as money in the campaign's currency and the donor's language: 2605 → "$26.05". */
export function formatMoney(cents: number, currency: string, locale: Locale): string {
  return new Intl.NumberFormat(locale === "es" ? "es-US" : "en-US", { style: "currency", currency }).format(
    cents / 100,
  );
}
