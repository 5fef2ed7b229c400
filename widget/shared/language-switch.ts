import type { h as createElement } from "preact";
import { LOCALE_NAMES } from "../../contract/locale-names";
import type { Locale } from "../i18n";

export interface LanguageSwitchProps {
  host: HTMLElement;
  locale: Locale;
  label: string;
  /** The languages offered where the element's own `locales` is not the whole word (a saved form's). */
  locales?: string | null;
}

/**
 * The languages a page allows its element (`locales="en,es,vi"`), for the donor to change to:
 * the element's `locale` becomes the one chosen, its form re-rendered with what was typed kept,
 * its card frame told (it redraws in place, the card typed kept).
 * None for an element without `locales`, or with one language. Drawn with the element's own
 * `h` (no JSX): a chunk that imported Preact would take Preact out of the element's chunk.
 */
/** A language givekit speaks: one with a name (the list is this chunk's, not every English form's). */
const isLocale = (tag: string): tag is Locale => Object.hasOwn(LOCALE_NAMES, tag);

export function languageSwitch(
  h: typeof createElement,
  { host, locale, label, locales }: LanguageSwitchProps,
) {
  const allowed = (locales ?? host.getAttribute("locales") ?? "")
    .split(",")
    .map((tag) => tag.trim())
    .filter(isLocale);
  if (allowed.length < 2) return null;
  // The element fetches the new language's words and then changes in one step, the form as it
  // was meanwhile (define-element.tsx); its form tells its card frame (donate/card/CardField.tsx).
  const choose = (next: string) => isLocale(next) && host.setAttribute("locale", next);
  return h(
    "select",
    {
      class: "gk-language",
      part: "language",
      "aria-label": label,
      value: locale,
      onChange: (event: Event) => choose((event.currentTarget as HTMLSelectElement).value),
    },
    allowed.map((option) => h("option", { key: option, value: option, lang: option }, LOCALE_NAMES[option])),
  );
}
