/**
 * Opening a donate form's card frame (card-frame.ts says where it lives): by widget.js as it sees
 * the element, or by the form's card step when widget.js did not (another language, a `proxy` of
 * the element's own, givekit.js).
 */
import { CARD_FRAME_SLOT, cardFrameIn } from "./card-frame";

/** What the frame's address carries: the campaign, so the proxy counts card signals per campaign. */
export type CardFrameTarget = Partial<Record<"shortcode" | "keyword" | "event_id" | "event_type", string>>;

/** The card frame's address: the proxy's /frame/card, told which page origin opened it. */
export function cardFrameUrl(proxyUrl: string, locale: string, target: CardFrameTarget = {}): string {
  const params = new URLSearchParams({ origin: location.origin, locale, ...target });
  return `${proxyUrl}/frame/card?${params}`;
}

/**
 * The card frame of `host` at `src`: the one already there if it has that address, else a new
 * one (an early one with another address, say another language, is replaced).
 */
export function cardFrameOf(host: Element, src: string): HTMLIFrameElement {
  const found = cardFrameIn(host);
  if (found?.getAttribute("src") === src) return found;
  found?.remove();
  const frame = document.createElement("iframe");
  frame.slot = CARD_FRAME_SLOT;
  // Out of sight and out of the way until the form shows it: it takes no room and moves nothing.
  // Through the style object, which a page's CSP allows where a style attribute is refused.
  frame.style.display = "none";
  // The frame is the proxy's page, another origin: allow-same-origin gives it its own origin
  // (for its own requests), never this page's. The sandbox still keeps it from navigating us.
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  frame.src = src;
  host.append(frame);
  return frame;
}
