import { signal } from "@preact/signals-core";
import type { LOCALE_NAMES } from "../../contract/locale-names";
import { isLocale, loadMessages, type Locale } from "../i18n";
import { reactive } from "./reactive";

/** The languages' names, each in itself: a chunk of their own, fetched only by a form that shows the switch. */
const names = signal<typeof LOCALE_NAMES | null>(null);
let fetchingNames = false;

/** Fetches the names once (again after a failure). */
function fetchNames(): void {
  if (fetchingNames) return;
  fetchingNames = true;
  import("../../contract/locale-names").then(
    (module) => (names.value = module.LOCALE_NAMES),
    () => (fetchingNames = false),
  );
}

interface LanguageSwitchProps {
  host: HTMLElement;
  locale: Locale;
  label: string;
  /** Before the form speaks the new language: what it says later too, when it says it already. */
  prepare?: (locale: Locale) => Promise<unknown>;
}

/**
 * The languages a page allows its element (`locales="en,es,vi"`), for the donor to change to:
 * the element's `locale` becomes the one chosen, its form re-rendered with what was typed kept.
 * None for an element without `locales`, or with one language.
 */
export const LanguageSwitch = reactive(({ host, locale, label, prepare }: LanguageSwitchProps) => {
  const allowed = (host.getAttribute("locales") ?? "")
    .split(",")
    .map((tag) => tag.trim())
    .filter(isLocale);
  if (allowed.length < 2) return null;
  // Until the names have come, nothing: the switch's room is kept (forms.css).
  fetchNames();
  const named = names.value;
  if (!named) return null;
  const choose = async (next: string) => {
    if (!isLocale(next)) return;
    // Its words first, so the form changes language in one step; a failed load changes nothing.
    await Promise.all([loadMessages(next), prepare?.(next)]).catch(() => undefined);
    host.setAttribute("locale", next);
  };
  return (
    <select
      class="gk-language"
      part="language"
      aria-label={label}
      value={locale}
      onChange={(event) => void choose(event.currentTarget.value)}
    >
      {allowed.map((option) => (
        <option key={option} value={option} lang={option}>
          {named[option]}
        </option>
      ))}
    </select>
  );
});
