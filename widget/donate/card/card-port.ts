import type { WidgetErrorCode as ErrorCode } from "../../../contract/errors";
import type { ToFrameMessage } from "../../../contract/frame";
import { readFromFrameMessage } from "../../shared/frame-messages";
import type { FrameTheme } from "../../shared/card-frame";
import { createCardState, type CardState } from "./card-state";

export type TokenResult =
  | { ok: true; token: string; brand: string; last4: string }
  | { ok: false; code: ErrorCode; retryAfterS?: number };

/** How long the frame may take to tokenize (it calls the proxy, which calls the upstream). */
export const TOKENIZE_TIMEOUT_MS = 45_000;
/** A card frame that has said nothing this long after it entered the page has not loaded. */
export const FRAME_LOAD_TIMEOUT_MS = 10_000;

/**
 * The frame's box where the card step shows it. It is the page's own element (shown through
 * the form's slot), so the page's rules reach it: these hold against any (even !important).
 */
const SHOWN: Record<string, string> = {
  display: "block",
  // The frame keeps 0.25 rem round its fields for their focus rings: it reaches out by as much,
  // so the card's fields line up with the form's others.
  width: "calc(100% + 0.5em)",
  "max-width": "none",
  // The card frame's own height before it says so (frame.css): nothing moves when it does.
  height: "14.6875em",
  margin: "0 -0.25em",
  padding: "0",
  border: "0",
  // The form's em (the slot's), whatever size the page gives its elements.
  "font-size": "inherit",
};

/**
 * The widget's side of the card frame: it knows only what the frame chooses to tell it
 * (ready, complete, brand, height) and gets a token for the card, never the card itself.
 * Every message is checked for the proxy's origin and the frame's window before it is read.
 *
 * @example
 * const card = createCardPort("https://give.example.org");
 * card.attach(iframe, slot, frameTheme(host));
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
  /** Where the form shows the frame: its own form is the slot's (the frame is the page's element). */
  let place: Element | null = null;
  let theme: FrameTheme = {};
  let described: { title: string; description: string | null } | null = null;
  let src: string | undefined;
  let slotRef: ((slot: HTMLSlotElement | null) => void) | undefined;

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
      case "givekit:frame-ready":
        // A frame that opened before the form was there, or loads again: it takes the look now.
        post({ type: "givekit:theme", ...theme });
        break;
      case "givekit:submit":
        // Enter in a card field: the donor's form is submitted as by its button.
        place?.closest("form")?.requestSubmit();
        break;
      case "givekit:resize":
        height.value = Math.ceil(message.height);
        frame.style.setProperty("height", `${height.value}px`, "important");
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
        waiting.get(message.id)?.({
          ok: false,
          code: message.code,
          ...(message.retryAfterS !== undefined && { retryAfterS: message.retryAfterS }),
        });
        break;
    }
  }

  /** Titles the frame and, while the card has a problem, describes it by that problem's words. */
  function describe(title: string, description: string | null) {
    described = { title, description };
    if (!frame) return;
    frame.title = title;
    if (description) frame.setAttribute("aria-description", description);
    else frame.removeAttribute("aria-description");
  }

  function attach(element: HTMLIFrameElement, slot: Element | null = null, look: FrameTheme = {}) {
    frame = element;
    place = slot;
    theme = look;
    for (const [property, value] of Object.entries(SHOWN))
      element.style.setProperty(property, value, "important");
    if (height.peek() > 0) element.style.setProperty("height", `${height.peek()}px`, "important");
    if (described) describe(described.title, described.description);
    window.addEventListener("message", onMessage);
    // Heard only by a frame already there (else lost on the way): one that comes later asks.
    post({ type: "givekit:theme", ...theme });
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
    place = null;
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
    describe,
    /**
     * The card step's slot's ref: as the slot enters the form, the frame `open` gives (widget.js's
     * early one, or a new one) is attached and takes the form's look; one ref for the port's life.
     */
    frameSlot: (open: () => { frame: HTMLIFrameElement; theme: FrameTheme }) =>
      (slotRef ??= (slot) => {
        if (!slot) return detach();
        const opened = open();
        attach(opened.frame, slot, opened.theme);
      }),

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
