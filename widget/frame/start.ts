import { isRtl, localeOf } from "../i18n";
import { frameEn } from "../i18n/frame-en";
import { FRAME_CATALOGS } from "../i18n/frame-catalogs";
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

/** Starts the card frame: checks who opened it, applies the theme, renders the form. */
export async function startCardFrame(root: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const asked = localeOf(params.get("locale"));
  // English is in this script; another language is fetched only by a frame that speaks it, and
  // one that does not come leaves the frame in English, usable.
  const t = await FRAME_CATALOGS[asked]().catch(() => frameEn);
  const locale = t === frameEn ? "en" : asked;
  document.documentElement.lang = locale;
  // Its labels read right to left in Arabic; the digits keep their order (frame.css).
  document.documentElement.dir = isRtl(locale) ? "rtl" : "ltr";
  document.title = t.title;
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
    applyTheme: themed,
  });
}
