/**
 * Where a donate form's card frame lives: a child of the `<givekit-donate>` element itself (its
 * light DOM), shown in the form's card step through `<slot name="card-frame">`. Moving an iframe
 * loads it again, so it is made once where it stays; widget.js makes it as it sees the element,
 * beside the form's own code, and the form takes it over (or makes it, when widget.js did not).
 * Its address holds only what the element's attributes say (open-card-frame.ts); the look comes
 * by message, from the form's first step (here).
 */

export const CARD_FRAME_SLOT = "card-frame";

/** `host`'s card frame, if it has one yet. */
export const cardFrameIn = (host: Element): HTMLIFrameElement | null =>
  host.querySelector(`:scope > iframe[slot="${CARD_FRAME_SLOT}"]`);

/** A form that will not show (a campaign not served, attributes it cannot read) keeps no frame open. */
export const dropCardFrame = (host: Element): void => cardFrameIn(host)?.remove();

/**
 * The look the frame takes from the form (contract/frame.ts's `givekit:theme`); the rest of the
 * form adds what the frame counts the form's steps by: the viewport's width and the form's channel.
 */
export type FrameTheme = Partial<
  Record<"text" | "font" | "size" | "accent" | "radius" | "channel", string>
> & {
  width?: number;
};

/**
 * The theme the frame takes from the page: the form's text colour, font and size as computed
 * (so the frame's rem is the form's em), and the --givekit-accent and --givekit-radius set.
 */
export function frameTheme(host: Element): FrameTheme {
  const style = getComputedStyle(host.shadowRoot?.querySelector(".gk-root") ?? host);
  const theme: FrameTheme = { text: style.color, font: style.fontFamily, size: style.fontSize };
  for (const name of ["accent", "radius"] as const) {
    const value = style.getPropertyValue(`--givekit-${name}`).trim();
    if (value) theme[name] = value;
  }
  return theme;
}

/**
 * Gives the card frame widget.js opened for `host` the form's look: now (heard if the frame is
 * there already) and as it loads (if it comes after). The first step does it, so the card fields
 * are ready as the form is, whenever the rest of the form comes (card-port.ts gives it again).
 */
export function themeCardFrame(host: Element, proxyOrigin: string): void {
  const frame = cardFrameIn(host);
  const send = () =>
    frame?.contentWindow?.postMessage({ type: "givekit:theme", ...frameTheme(host) }, proxyOrigin);
  frame?.addEventListener("load", send);
  send();
}
