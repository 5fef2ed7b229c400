/**
 * widget.js's whole job: watch the page for givekit's elements and load their code (ES module
 * chunks served by the proxy) when the first of each kind appears, already in the HTML or added
 * later by a script, with the messages of the languages they ask for beside it (two requests at
 * once, not one after the other). An element present before its code arrives is upgraded by
 * customElements.define(), attributes and all.
 *
 * For `<givekit-donate>` it asks, in the same moment, for what the form asks for as soon as it
 * runs: its campaign (an early GET its chunk takes over, widget/shared/early-answers.ts) and its card
 * frame (widget/shared/card-frame.ts, which the form's first step gives its look). So a donor
 * waits for one wave of requests after widget.js, not three in a row, and the card fields are
 * ready as the first step is. The rest of the form (its later steps) the form asks for as it
 * starts: the first step has the wave's bandwidth to itself.
 */
import type { EarlyAnswers } from "./shared/early-answers";
import { earlyCampaignPath } from "./donate/campaign/campaign";
import type { LocaleChooser } from "./i18n";
import { chooseLocale } from "./i18n/choose";
import { cardFrameOf, cardFrameUrl } from "./shared/open-card-frame";

const DONATE = "givekit-donate";

/** Gives a language's catalog (widget/i18n `MessageSource`). */
type Catalogs = (locale: string) => Promise<unknown>;

/**
 * Asks for another element's chunk, and its catalog in `locale`, when this loader has not
 * fetched it yet: for an element a chunk creates where the watcher does not look (a shadow root).
 */
export type NeedElement = (tag: string, locale: string) => void;

/**
 * What every chunk exports (widget/chunks/): it defines its element(s), with its catalogs and
 * this loader's way of choosing each element's language (one copy per page, not one per chunk).
 */
interface ElementChunk {
  define(
    messages: Catalogs,
    need: NeedElement,
    early: EarlyAnswers,
    choose: LocaleChooser,
  ): void | Promise<void>;
}

/** Where the chunks are, relative to widget.js: written by the build (vite.config.ts). */
export interface ChunkTable {
  /**
   * The elements' tags: `<givekit-NAME>`'s code alone is assets/NAME-VERSION.js, and every
   * element's together (smaller than two alone, each bringing its own Preact) assets/all-VERSION.js.
   */
  elements: string[];
  /** The chunks' version (vite.config.ts's CODE_VERSION). */
  version: string;
  /**
   * The catalogs' version: each chunk's catalog in a language (what its elements say, and no
   * more) is assets/NAME-LOCALE-VERSION.js beside it (vite.config.ts).
   */
  catalogs: string;
}

/**
 * @param base the URL widget.js was loaded from
 * @example
 * watchForElements({
 *   elements: ["givekit-donate", "givekit-optin"], // assets/donate-1a2b3c4d.js, assets/all-1a2b3c4d.js…
 *   version: "1a2b3c4d",
 *   catalogs: "5e6f7a8b", // assets/donate-en-5e6f7a8b.js, assets/all-es-5e6f7a8b.js…
 * }, script.src);
 */
export function watchForElements(chunks: ChunkTable, base: string): void {
  const proxyOrigin = new URL(base).origin;
  /**
   * A chunk's file (its key a tag, "all", or "saved-form": a saved form's code, one file for every
   * chunk with `<givekit-donate>`), or its catalog's in `locale`, by the versions.
   */
  const fileOf = (key: string, locale?: string) =>
    new URL(
      `assets/${key.replace("givekit-", "")}-${locale ? `${locale}-${chunks.catalogs}` : chunks.version}.js`,
      base,
    ).href;
  const waiting = new Set(chunks.elements);
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node instanceof Element) load(node);
  });

  /** A chunk's catalogs (its key a tag, or "all"), each requested once (again after a failure). */
  function catalogsOf(key: string): Catalogs {
    const requests = new Map<string, Promise<unknown>>();
    return (locale) => {
      const url = fileOf(key, locale);
      let request = requests.get(url);
      if (!request) {
        request = import(/* @vite-ignore */ url).then((module: { messages: unknown }) => module.messages);
        request.catch(() => requests.delete(url));
        requests.set(url, request);
      }
      return request;
    };
  }

  /** The campaigns asked for early, by URL, until their element's chunk takes each over (once). */
  const early = new Map<string, Promise<Response>>();
  const take: EarlyAnswers = (url) => {
    const answer = early.get(url);
    early.delete(url);
    return answer;
  };

  /**
   * What each form asks for first, asked now: its campaign and its card frame (by short code and
   * keyword, from the proxy widget.js came from; a form named by its event, or with a `proxy` of
   * its own, asks for its own). A request that fails here is made again by the form, as if it had
   * not been made.
   */
  function startDonateForms() {
    for (const form of document.querySelectorAll(DONATE)) {
      const get = (name: string) => form.getAttribute(name);
      const locale = chooseLocale(form);
      // A saved form's code, beside its chunk rather than after it: the very module that chunk imports.
      if (get("form") !== null) import(/* @vite-ignore */ fileOf("saved-form")).catch(() => undefined);
      const path = earlyCampaignPath(get);
      const url = path && get("proxy") === null && new URL(path, base).href;
      if (url && !early.has(url)) {
        // As the form's client would send it (widget/shared/api-client.ts).
        const answer = fetch(url, { credentials: "omit" });
        // The first step shows money (widget/shared/format.ts): a page's first number formatter
        // loads its language's data, on a slow phone the longest work once the form's code has
        // come (about 70 ms at 4x CPU). One made as the campaign comes, while the form's code is
        // still on its way (the larger answer of the wave), takes it; the form's own come at once.
        answer.then(
          () => new Intl.NumberFormat(locale),
          () => undefined,
        );
        early.set(url, answer);
      }
      if (url) {
        // At the address the form will give it (widget/donate/CardField.tsx), so the form keeps it.
        const target = { shortcode: get("shortcode")!, keyword: get("keyword")!.toUpperCase() };
        cardFrameOf(form, cardFrameUrl(proxyOrigin, locale, target));
      }
    }
  }

  const need: NeedElement = (tag, locale) => {
    if (waiting.has(tag)) fetchChunk(tag, [tag], [locale]);
  };

  /** Fetches a chunk, and beside it (not after it) its catalog in the languages its elements ask for. */
  function fetchChunk(
    key: string,
    tags: string[],
    locales: string[] = [...document.querySelectorAll(tags.join(","))].map(chooseLocale),
  ) {
    for (const tag of tags) waiting.delete(tag);
    if (waiting.size === 0) observer.disconnect();
    const catalogs = catalogsOf(key);
    for (const locale of locales) catalogs(locale).catch(() => undefined);
    const code = import(/* @vite-ignore */ fileOf(key));
    if (tags.includes(DONATE)) startDonateForms();
    code.then(
      (chunk: ElementChunk) => chunk.define(catalogs, need, take, chooseLocale),
      () => console.error(`[givekit] <${tags.join(">, <")}> could not be loaded from ${proxyOrigin}.`),
    );
  }

  /** Loads the code of the elements found in `root` (one chunk for several kinds at once). */
  function load(root: Element | Document) {
    const found = [...waiting].filter(
      (tag) => (root instanceof Element && root.localName === tag) || root.querySelector(tag),
    );
    if (found.length > 1) fetchChunk("all", [...waiting]);
    else if (found[0]) fetchChunk(found[0], found);
  }

  observer.observe(document, { childList: true, subtree: true });
  load(document);
}
