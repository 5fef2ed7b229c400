import { intlTag, isolate, type Locale } from "../i18n";

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: Locale, whole: boolean): Intl.NumberFormat {
  const key = `${currency}|${locale}|${whole}`;
  let format = formatters.get(key);
  if (!format) {
    // No more digits than `whole` allows sets no fewer either (ECMA-402).
    format = new Intl.NumberFormat(intlTag(locale), {
      style: "currency",
      currency,
      maximumFractionDigits: whole ? 0 : undefined,
    });
    formatters.set(key, format);
  }
  return format;
}

/**
 * Cents as money in the campaign's currency and the donor's language: 2605 → "$26.05".
 * With `short`, whole amounts drop their cents (2500 → "$25"), as preset buttons show them.
 * Isolated in a right-to-left language, so it reads whole inside the sentence around it.
 */
export function formatMoney(cents: number, currency: string, locale: Locale, short = false): string {
  return isolate(formatter(currency, locale, short && cents % 100 === 0).format(cents / 100), locale);
}
