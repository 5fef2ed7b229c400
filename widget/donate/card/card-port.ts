import type { WidgetErrorCode as ErrorCode } from "../../../contract/errors";
import type { ToFrameMessage } from "../../../contract/frame";
import { readFromFrameMessage } from "../../shared/frame-messages";
import type { Locale } from "../../i18n";
import { createCardState, type CardState } from "./card-state";

export type TokenResult =
  | { ok: true; token: string; brand: string; last4: string }
  | { ok: false; code: ErrorCode };

/** How long the frame may take to tokenize (it calls the proxy, which calls the upstream). */
export const TOKENIZE_TIMEOUT_MS = 45_000;
/** A card frame that has said nothing this long after it entered the page has not loaded. */
export const FRAME_LOAD_TIMEOUT_MS = 10_000;

/**
 * The theme the frame takes from the page: the form's text colour, font and size as computed
 * (so the frame's rem is the form's em), and the --givekit-accent and --givekit-radius set.
 */
export function frameTheme(host: Element): Record<string, string> {
  const style = getComputedStyle(host.shadowRoot?.querySelector(".gk-root") ?? host);
  const theme: Record<string, string> = { text: style.color, font: style.fontFamily, size: style.fontSize };
  for (const name of ["accent", "radius"]) {
    const value = style.getPropertyValue(`--givekit-${name}`).trim();
    if (value) theme[name] = value;
  }
  return theme;
}

/** The card frame's address: the proxy's /frame/card, told which page origin opened it. */
export function cardFrameUrl(proxyUrl: string, locale: Locale, theme: Record<string, string> = {}): string {
  const params = new URLSearchParams({ origin: location.origin, locale, ...theme });
  return `${proxyUrl}/frame/card?${params}`;
}

/**
 * The widget's side of the card frame: it knows only what the frame chooses to tell it
 * (ready, complete, brand, height) and gets a token for the card, never the card itself.
 * Every message is checked for the proxy's origin and the frame's window before it is read.
 *
 * @example
 * const card = createCardPort("https://give.example.org");
 * card.attach(iframe);
 * const result = await card.tokenize(); // { ok: true, token, brand, last4 }
 */
export function createCardPort(proxyUrl: string, state: CardState = createCardState()) {
  const frameOrigin = new URL(proxyUrl).origin;
  // `failed`: the frame has not said a word FRAME_LOAD_TIMEOUT_MS after it entered the page.
  const { complete, brand, height, failed, revision } = state;
  let loadTimer: ReturnType<typeof setTimeout> | undefined;
  /** The frame has spoken, so it listens: a message posted now is heard. */
  let loaded = false;
  const waiting = new Map<string, (result: TokenResult) => void>();
  let frame: HTMLIFrameElement | null = null;
  let src: string | undefined;

  function post(message: ToFrameMessage): boolean {
    const target = frame?.contentWindow;
    if (!target) return false;
    target.postMessage(message, frameOrigin);
    return true;
  }

  function onMessage(event: MessageEvent) {
    if (event.origin !== frameOrigin || !frame || event.source !== frame.contentWindow) return;
    const message = readFromFrameMessage(event.data);
    if (!message) return;
    // Any word from the frame says it loaded (a slow one that comes late clears the notice).
    clearTimeout(loadTimer);
    failed.value = false;
    loaded = true;
    switch (message.type) {
      case "givekit:submit":
        // Enter in a card field: the donor's form is submitted as by its button.
        frame.closest("form")?.requestSubmit();
        break;
      case "givekit:resize":
        height.value = Math.ceil(message.height);
        break;
      case "givekit:card-state":
        complete.value = message.complete;
        brand.value = message.brand;
        revision.value += 1;
        break;
      case "givekit:token":
        waiting.get(message.id)?.({
          ok: true,
          token: message.token,
          brand: message.brand,
          last4: message.last4,
        });
        break;
      case "givekit:token-error":
        waiting.get(message.id)?.({ ok: false, code: message.code });
        break;
    }
  }

  function attach(element: HTMLIFrameElement) {
    frame = element;
    window.addEventListener("message", onMessage);
    loadTimer = setTimeout(() => {
      failed.value = true;
      console.error(
        `[givekit] <givekit-donate>: the card form (${frameOrigin}/frame/card) did not load within ${FRAME_LOAD_TIMEOUT_MS / 1000} s. ` +
          `If this page has a Content-Security-Policy, its frame-src must allow ${frameOrigin}.`,
      );
    }, FRAME_LOAD_TIMEOUT_MS);
  }
  function detach() {
    clearTimeout(loadTimer);
    window.removeEventListener("message", onMessage);
    frame = null;
    loaded = false;
    complete.value = false;
    for (const resolve of waiting.values()) resolve({ ok: false, code: "network_error" });
    waiting.clear();
  }

  return {
    complete,
    brand,
    height,
    failed,
    revision,
    attach,
    detach,
    /** The frame's address, made once: a new one would reload the frame and lose the card typed. */
    frameUrl: (make: () => string) => (src ??= make()),
    /** The iframe's ref: attached as it enters the page, so not even its first message is missed. */
    frameRef: (element: HTMLIFrameElement | null) => (element ? attach(element) : detach()),

    /** Asks the frame to tokenize the card it holds; answers with a token or an error code. */
    tokenize(): Promise<TokenResult> {
      const id = crypto.randomUUID();
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish({ ok: false, code: "network_error" }), TOKENIZE_TIMEOUT_MS);
        function finish(result: TokenResult) {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(result);
        }
        waiting.set(id, finish);
        if (!post({ type: "givekit:tokenize", id })) finish({ ok: false, code: "network_error" });
      });
    },
    /** Moves focus into the frame and lets it show what is missing. */
    focus() {
      frame?.focus();
      post({ type: "givekit:focus" });
    },
    /**
     * The donor has come to the card: the frame focuses its first empty field and shows no
     * error yet. False (and nothing done) while the frame has not loaded.
     */
    start(): boolean {
      if (!loaded) return false;
      frame?.focus();
      return post({ type: "givekit:start" });
    },
    /** Clears the card after a completed donation. */
    reset() {
      post({ type: "givekit:reset" });
    },
  };
}
export type CardPort = ReturnType<typeof createCardPort>;
