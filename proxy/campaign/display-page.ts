/**
 * The screen for the room's HTML, made by the proxy per campaign (its settings in the campaigns
 * file's `displays`): the figures' places (display.js fills them from the live feed), the call to
 * text, and the QR code of the donate page drawn here as SVG (uqr), so the screen's script carries
 * no QR code library. Every value from the settings is escaped; nothing inline runs (CSP below).
 */
import { renderSVG } from "uqr";
import type { Campaign, DisplaySettings } from "../../contract/api";
import { DISPLAY_WORDS } from "../../contract/display-words";
import { RTL_LOCALES } from "../../contract/locale-traits";

/** The page's policy: its own script and stylesheet, its own API, nothing else; never framed. */
export const DISPLAY_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The QR code of `url` as SVG markup (black on white, a quiet zone of 2 modules). */
export function qrSvg(url: string): string {
  return renderSVG(url, { ecc: "M", border: 2, pixelSize: 1 });
}

/**
 * Past this many characters (the call's and the scan's, as read) the call to give takes a smaller
 * type (display.css `.call.long`): Russian's 65 ran a line past a 1280x800 screen at the size
 * English's 33 have (e2e/languages.spec.ts measures every language).
 */
const LONG_CALL_CHARS = 50;

export function displayPage(
  campaign: Campaign,
  display: DisplaySettings,
  assets: { script: string; style: string },
) {
  const locale = display.locale ?? "en";
  const t = DISPLAY_WORDS[locale];
  const dir = RTL_LOCALES.includes(locale) ? "rtl" : "ltr";
  const api = `/v1/campaigns/${encodeURIComponent(campaign.shortcode)}/${encodeURIComponent(campaign.keyword)}`;
  const title = escapeHtml(display.title ?? campaign.keyword);
  const of = campaign.peer_fundraising ? "teams" : null;
  const call = t.text(
    escapeHtml(display.text_keyword ?? campaign.keyword),
    escapeHtml(display.text_shortcode ?? campaign.shortcode),
  );
  const long = call.replace(/<[^>]*>/g, "").length + t.scan.length > LONG_CALL_CHARS;
  return `<!doctype html>
<html lang="${locale}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${escapeHtml(assets.style)}">
<script type="module" src="${escapeHtml(assets.script)}"></script>
</head>
<body>
<main data-live="${escapeHtml(api)}"${of ? ` data-of="${of}"` : ""}>
<div>
<h1>${title}</h1>
<div class="figures">
<div class="bar" data-part="bar" role="progressbar" aria-label="${t.bar}" aria-valuemin="0" aria-valuemax="100" hidden><div class="fill" data-part="fill"></div></div>
<div class="raised" data-part="raised" aria-live="polite">${t.loading}</div>
<div class="goal" data-part="goal"></div>
<div class="donors" data-part="donors"></div>
</div>
<div class="call${long ? " long" : ""}">
<div class="qr" role="img" aria-label="${escapeHtml(`QR: ${display.donate_url}`)}">${qrSvg(display.donate_url)}</div>
<p>${call}<br><small>${t.scan}</small></p>
</div>
</div>
<div class="lists">
<section aria-labelledby="latest"><h2 id="latest">${t.latest}</h2><ol data-part="wall"></ol></section>
${of ? `<section class="leaders" aria-labelledby="leaders"><h2 id="leaders">${t.teams}</h2><ol data-part="leaders"></ol></section>` : `<ol data-part="leaders" hidden></ol>`}
</div>
</main>
<p class="status" data-part="status" role="status" hidden></p>
<p class="reached" data-part="reached" role="status" hidden>${t.reached}</p>
</body>
</html>
`;
}
