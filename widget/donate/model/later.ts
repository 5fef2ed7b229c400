import { addMessages, type Catalog, type Locale } from "../../i18n";

/** widget/donate/later.ts's exports. */
export type Later = typeof import("../later");

/** What the form says after its first step, by language: fetched beside later.ts. */
const LATER_WORDS: Record<Locale, () => Promise<{ messages: Catalog }>> = {
  en: () => import("../../chunks/messages/donate-later-en"),
  es: () => import("../../chunks/messages/donate-later-es"),
};

const requests: Partial<Record<Locale, Promise<Later>>> = {};

/**
 * widget/donate/later.ts and its words in `locale`, loaded once (tried again after a failed
 * load, at the next need).
 */
export function loadLater(locale: Locale): Promise<Later> {
  return (requests[locale] ??= Promise.all([
    import("../later"),
    addMessages(locale, "donateLater", LATER_WORDS[locale]),
  ]).then(
    ([later]) => later,
    (error: unknown) => {
      delete requests[locale];
      throw error;
    },
  ));
}
