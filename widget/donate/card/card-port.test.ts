import { afterEach, describe, expect, it, vi } from "vitest";
import { createCardPort, FRAME_LOAD_TIMEOUT_MS } from "./card-port";

const PROXY = "https://give.example.org";
const THEME = { text: "rgb(0, 0, 0)", size: "18px", accent: "#b00" };

function setup() {
  const posted: { message: unknown; targetOrigin: string }[] = [];
  const frameWindow = {
    postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }),
  };
  const iframe = document.createElement("iframe");
  Object.defineProperty(iframe, "contentWindow", { value: frameWindow });
  iframe.focus = vi.fn<() => void>();
  const port = createCardPort(PROXY);
  port.attach(iframe, null, THEME);
  // What attaching says (the look), tested on its own below.
  posted.length = 0;
  const send = (data: unknown, origin = PROXY, source: unknown = frameWindow) =>
    window.dispatchEvent(new MessageEvent("message", { data, origin, source: source as Window }));
  return { port, posted, send, iframe };
}

let current: ReturnType<typeof setup> | null = null;
afterEach(() => {
  current?.port.detach();
  current = null;
});

describe("the widget's side of the card frame", () => {
  it("gives the frame the form's look as it attaches, and again when the frame says it is ready", () => {
    const posted: unknown[] = [];
    const iframe = document.createElement("iframe");
    Object.defineProperty(iframe, "contentWindow", {
      value: { postMessage: (m: unknown) => posted.push(m) },
    });
    const port = createCardPort(PROXY);
    port.attach(iframe, null, THEME);
    expect(posted).toEqual([{ type: "givekit:theme", ...THEME }]);
    // A frame that loaded after the first word was posted (and lost) asks by saying it is ready.
    window.dispatchEvent(
      new MessageEvent("message", {
        data: { type: "givekit:frame-ready" },
        origin: PROXY,
        source: iframe.contentWindow,
      }),
    );
    expect(posted).toEqual([
      { type: "givekit:theme", ...THEME },
      { type: "givekit:theme", ...THEME },
    ]);
    // Shown in the card step whatever the page's rules for iframes say.
    expect(iframe.style.getPropertyValue("display")).toBe("block");
    expect(iframe.style.getPropertyPriority("border")).toBe("important");
    port.detach();
  });

  it("submits the form the frame is shown in (never a form of the page's around the element)", () => {
    const pageForm = document.createElement("form");
    const host = pageForm.appendChild(document.createElement("div"));
    const shadowForm = host.attachShadow({ mode: "open" }).appendChild(document.createElement("form"));
    const slot = shadowForm.appendChild(document.createElement("slot"));
    const iframe = host.appendChild(document.createElement("iframe"));
    const frameWindow = { postMessage() {} };
    Object.defineProperty(iframe, "contentWindow", { value: frameWindow });
    const submitted: string[] = [];
    pageForm.requestSubmit = () => void submitted.push("page");
    shadowForm.requestSubmit = () => void submitted.push("form");
    const port = createCardPort(PROXY);
    port.attach(iframe, slot);
    window.dispatchEvent(
      new MessageEvent("message", {
        data: { type: "givekit:submit" },
        origin: PROXY,
        source: frameWindow as unknown as Window,
      }),
    );
    expect(submitted).toEqual(["form"]);
    port.detach();
  });

  it("asks for a token with a message only the proxy's origin can read, and gets token, brand and last 4", async () => {
    current = setup();
    const { port, posted, send } = current;
    const pending = port.tokenize();
    expect(posted).toEqual([
      { message: { type: "givekit:tokenize", id: expect.any(String) }, targetOrigin: PROXY },
    ]);
    const id = (posted[0]!.message as { id: string }).id;
    send({
      type: "givekit:token",
      id,
      token: "tok_1",
      brand: "visa",
      last4: "4242",
      card_number: "4242424242424242",
    });
    expect(await pending).toEqual({ ok: true, token: "tok_1", brand: "visa", last4: "4242" });
  });

  it("ignores messages from any other origin or window, and malformed ones", async () => {
    vi.useFakeTimers();
    try {
      current = setup();
      const { port, posted, send } = current;
      const pending = port.tokenize();
      const id = (posted[0]!.message as { id: string }).id;
      const forged = { type: "givekit:token", id, token: "tok_evil", brand: "visa", last4: "0000" };
      send(forged, "https://evil.example");
      send(forged, PROXY, { postMessage() {} });
      send({ ...forged, last4: "12345" });
      send({ type: "givekit:card-state", complete: "yes", brand: "visa" });
      expect(port.complete.value).toBe(false);
      send({ type: "givekit:card-state", complete: true, brand: "amex" });
      expect(port.complete.value).toBe(true);
      expect(port.brand.value).toBe("amex");
      send({ type: "givekit:resize", height: 180.4 });
      expect(port.height.value).toBe(181);
      expect(current.iframe.style.getPropertyValue("height")).toBe("181px");
      vi.advanceTimersByTime(60_000);
      expect(await pending).toEqual({ ok: false, code: "network_error" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("passes on the frame's error code", async () => {
    current = setup();
    const { port, posted, send } = current;
    const pending = port.tokenize();
    const id = (posted[0]!.message as { id: string }).id;
    send({ type: "givekit:token-error", id, code: "rate_limited" });
    expect(await pending).toEqual({ ok: false, code: "rate_limited" });
  });

  it("moves focus into the frame and clears it on request", () => {
    current = setup();
    const { port, posted, iframe } = current;
    port.focus();
    port.reset();
    expect(iframe.focus).toHaveBeenCalled();
    expect(posted.map((entry) => entry.message)).toEqual([
      { type: "givekit:focus" },
      { type: "givekit:reset" },
    ]);
  });

  it("takes the donor to the card's first field once the frame has loaded, and not before", () => {
    current = setup();
    const { port, posted, iframe, send } = current;
    expect(port.start()).toBe(false);
    expect(iframe.focus).not.toHaveBeenCalled();
    send({ type: "givekit:frame-ready" });
    expect(port.start()).toBe(true);
    expect(iframe.focus).toHaveBeenCalled();
    expect(posted.map((entry) => entry.message)).toEqual([
      { type: "givekit:theme", ...THEME },
      { type: "givekit:start" },
    ]);
  });

  it("a frame that says nothing for 10 s has not loaded: the form says so, and the console names the CSP's frame-src", () => {
    vi.useFakeTimers();
    try {
      const error = vi.spyOn(console, "error").mockImplementation(() => {});
      current = setup();
      const { port, send } = current;
      vi.advanceTimersByTime(FRAME_LOAD_TIMEOUT_MS - 1);
      expect(port.failed.value).toBe(false);
      vi.advanceTimersByTime(1);
      expect(port.failed.value).toBe(true);
      expect(error).toHaveBeenCalledWith(
        expect.stringMatching(
          /^\[givekit\] .*did not load.*frame-src must allow https:\/\/give\.example\.org/,
        ),
      );
      // A slow frame that comes after all: the notice goes.
      send({ type: "givekit:frame-ready" });
      expect(port.failed.value).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a frame that speaks in time never fails", () => {
    vi.useFakeTimers();
    try {
      current = setup();
      current.send({ type: "givekit:frame-ready" });
      vi.advanceTimersByTime(FRAME_LOAD_TIMEOUT_MS * 2);
      expect(current.port.failed.value).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
