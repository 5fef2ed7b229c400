import { RTL_LOCALES } from "../../contract/locale-traits";
import type { Locale } from "../../contract/locales";
import { frameEn, type FrameMessages } from "../i18n/frame-en";
import { mountCardForm } from "./card-form";
import { createFormEvents } from "./form-events";
import { openFormSession } from "./form-session";
import { createParentChannel, trustedParentOrigin } from "./parent-channel";

/** Only these may style the frame; they come from the page by message (`givekit:theme`). */
const THEME = {
  accent: "--accent",
  radius: "--radius",
  font: "--font",
  text: "--text",
  // The page's font size sets the frame's rem, so the frame's height is what the page reserved.
  size: "font-size",
} as const;
const SAFE_CSS_VALUE = /^[\w\s#%.,()'"-]{1,80}$/;

/** Takes the form's look; what is not a plain value is left as the frame's own. */
export function applyTheme(theme: Partial<Record<keyof typeof THEME, string>>): void {
  const root = document.documentElement;
  for (const [name, property] of Object.entries(THEME)) {
    const value = theme[name as keyof typeof THEME];
    if (value && SAFE_CSS_VALUE.test(value)) root.style.setProperty(property, value);
    else root.style.removeProperty(property);
  }
  // The look has come: the card fields are as the form shows them (e2e/waterfall.ts waits for it).
  root.dataset.themed = "";
}

/** A language's tag as the form sends it ("vi", "pt-BR", "zh-Hant"): all that may name a catalog's file. */
const LOCALE_TAG = /^[a-z]{2}(-[A-Za-z]{2,4})?$/;

/**
 * The frame's words in the language the form asked for: English's in this script; another's
 * (widget/i18n/frame-LOCALE.ts) by its address beside it, assets/frame-LOCALE-VERSION.js
 * (vite.config.ts), rather than a table of every language's file in every English frame. A
 * language that does not come leaves the frame in English, usable.
 */
async function frameWords(asked: string | null): Promise<[Locale, FrameMessages]> {
  if (!asked || asked === "en" || !LOCALE_TAG.test(asked)) return ["en", frameEn];
  const file = `frame-${asked}-${__GIVEKIT_CATALOGS__}.js`;
  try {
    // Each catalog's one export (frameFr, frameAr…).
    const catalog = Object.values(await import(/* @vite-ignore */ new URL(file, import.meta.url).href))[0];
    return [asked as Locale, catalog as FrameMessages];
  } catch {
    return ["en", frameEn];
  }
}

/** The frame's words in a language, its page set to speak it (lang, dir, title). */
async function speak(asked: string | null): Promise<[Locale, FrameMessages]> {
  const [locale, t] = await frameWords(asked);
  document.documentElement.lang = locale;
  // Its labels read right to left in Arabic; the digits keep their order (frame.css).
  document.documentElement.dir = RTL_LOCALES.includes(locale) ? "rtl" : "ltr";
  document.title = t.title;
  return [locale, t];
}

/** Starts the card frame: checks who opened it, applies the theme, renders the form. */
export async function startCardFrame(root: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const [locale, t] = await speak(params.get("locale"));
  const parentOrigin = trustedParentOrigin(location.search);
  if (!parentOrigin) {
    root.append(Object.assign(document.createElement("p"), { className: "refused", textContent: t.refused }));
    return;
  }
  const channel = createParentChannel(parentOrigin);
  // The campaign the page opened the frame for: the proxy counts card-testing signals per campaign.
  const shortcode = params.get("shortcode");
  const keyword = params.get("keyword");
  const campaign = shortcode && keyword ? { shortcode, keyword } : null;
  // Bound to the campaign and to the page that opened it: the proxy takes its cards for no other.
  const formSession = openFormSession(campaign, parentOrigin);
  // Asked for as the form showing the frame sends its look: widget.js opens the frame early, and
  // a frame for a form that never shows (a campaign not served) asks for nothing.
  const themed = (theme: Parameters<typeof applyTheme>[0]) => {
    formSession.open();
    applyTheme(theme);
  };
  mountCardForm(root, {
    channel,
    t,
    locale,
    campaign,
    origin: parentOrigin,
    formSession,
    // Counted under the session: a frame for no campaign has none worth counting under.
    formEvents: campaign ? createFormEvents({ formSession }) : undefined,
    wordsIn: speak,
    applyTheme: themed,
  });
}
