import {
  chooseLocale,
  loadMessages,
  useLocaleChooser,
  useMessageSource,
  type LocaleChooser,
  type MessageSource,
} from "../i18n";
import type { NeedElement } from "../loader";
import { rememberScriptOrigin } from "../shared/proxy-url";
import { useEarlyAnswers, type EarlyAnswers } from "../shared/early-answers";

/**
 * A chunk's `define(messages)`: widget.js hands it where this chunk's catalogs are (their
 * requests already under way, beside the chunk's own); the messages of every language its
 * elements on the page ask for are loaded first, so each element renders whole at once, the
 * space the page kept for it filled in one step (no layout shift). A language that fails to
 * load is retried at render. `need` asks widget.js for another element's chunk (one this
 * chunk's elements create in their shadow roots, which widget.js does not watch); `early` gives
 * the answers widget.js asked for before this chunk came, for its elements' own requests to take over.
 *
 * @example
 * export const define = definer(import.meta.url, ["givekit-donate"], defineDonateElement);
 */
export function definer(chunkUrl: string, tags: readonly string[], define: (need: NeedElement) => void) {
  // The chunk is served by the proxy, like widget.js: its origin is the elements' default `proxy`.
  rememberScriptOrigin(chunkUrl);
  return async (
    messages: MessageSource,
    need: NeedElement,
    early?: EarlyAnswers,
    choose?: LocaleChooser,
  ): Promise<void> => {
    useMessageSource(messages);
    if (choose) useLocaleChooser(choose);
    useEarlyAnswers(early);
    const elements = document.querySelectorAll(tags.join(","));
    const locales = new Set([...elements].map(chooseLocale));
    await Promise.allSettled([...locales].map((locale) => loadMessages(locale)));
    define(need);
  };
}
