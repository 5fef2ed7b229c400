import type { h as createElement } from "preact";
import { LOCALE_NAMES } from "../../contract/locale-names";
import { loadMessages, type Locale } from "../i18n";
import type { ToFrameMessage } from "../../contract/frame";
import { cardFrameIn } from "./card-frame";

export interface LanguageSwitchProps {
  host: HTMLElement;
  locale: Locale;
  label: string;
  /** Before the form speaks the new language: what it says later too, when it says it already. */
  prepare?: (locale: Locale) => Promise<unknown>;
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
  { host, locale, label, prepare }: LanguageSwitchProps,
) {
  const allowed = (host.getAttribute("locales") ?? "")
    .split(",")
    .map((tag) => tag.trim())
    .filter(isLocale);
  if (allowed.length < 2) return null;
  const choose = async (next: string) => {
    if (!isLocale(next)) return;
    // Its words first, so the form changes language in one step; a failed load changes nothing.
    await Promise.all([loadMessages(next), prepare?.(next)]).catch(() => undefined);
    host.setAttribute("locale", next);
    // The card frame, kept with the card typed in it, redraws its words (and its challenge's) in
    // it. Posted as tell-card-frame.ts does, not through it: shared with the rest of the form, it
    // would become a chunk of its own, one more request for every donation.
    const frame = cardFrameIn(host);
    const message: ToFrameMessage = { type: "givekit:locale", locale: next };
    frame?.contentWindow?.postMessage(message, new URL(frame.src, location.href).origin);
  };
  return h(
    "select",
    {
      class: "gk-language",
      part: "language",
      "aria-label": label,
      value: locale,
      onChange: (event: Event) => void choose((event.currentTarget as HTMLSelectElement).value),
    },
    allowed.map((option) => h("option", { key: option, value: option, lang: option }, LOCALE_NAMES[option])),
  );
}
