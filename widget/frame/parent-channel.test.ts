import { afterEach, describe, expect, it, vi } from "vitest";
import { createParentChannel, trustedParentOrigin } from "./parent-channel";
import { readFromFrameMessage, readToFrameMessage } from "../shared/frame-messages";

const PAGE = "https://hope.example.org";

function framedBy(referrer: string) {
  const parent = { postMessage: vi.fn<(message: unknown, targetOrigin: string) => void>() };
  vi.spyOn(window, "parent", "get").mockReturnValue(parent as unknown as Window);
  vi.spyOn(document, "referrer", "get").mockReturnValue(referrer);
  return parent;
}

afterEach(() => vi.restoreAllMocks());

describe("who the card frame answers to", () => {
  it("the origin it was opened for, when the browser agrees that is who embeds it", () => {
    framedBy(`${PAGE}/walk?x=1`);
    expect(trustedParentOrigin(`?origin=${encodeURIComponent(PAGE)}`)).toBe(PAGE);
  });

  it.each([
    ["another page embeds it", "https://evil.example/", PAGE],
    ["the origin is not an origin", `${PAGE}/`, `${PAGE}/path`],
    ["no origin is given", `${PAGE}/`, ""],
  ])("nobody when %s", (_case, referrer, origin) => {
    framedBy(referrer);
    expect(trustedParentOrigin(origin ? `?origin=${encodeURIComponent(origin)}` : "")).toBeNull();
  });

  it("nobody when it is not in a frame at all", () => {
    expect(trustedParentOrigin(`?origin=${encodeURIComponent(PAGE)}`)).toBeNull();
  });

  it("sends to that one origin and hears only it", () => {
    const parent = framedBy(`${PAGE}/`);
    const channel = createParentChannel(PAGE);
    const heard = vi.fn<(message: unknown) => void>();
    const stop = channel.listen(heard);
    channel.send({ type: "givekit:frame-ready" });
    expect(parent.postMessage).toHaveBeenCalledWith({ type: "givekit:frame-ready" }, PAGE);
    const tokenize = { type: "givekit:tokenize", id: "x" };
    window.dispatchEvent(
      new MessageEvent("message", {
        data: tokenize,
        origin: "https://evil.example",
        source: parent as unknown as Window,
      }),
    );
    window.dispatchEvent(new MessageEvent("message", { data: tokenize, origin: PAGE, source: window }));
    window.dispatchEvent(
      new MessageEvent("message", {
        data: { type: "givekit:steal" },
        origin: PAGE,
        source: parent as unknown as Window,
      }),
    );
    expect(heard).not.toHaveBeenCalled();
    window.dispatchEvent(
      new MessageEvent("message", { data: tokenize, origin: PAGE, source: parent as unknown as Window }),
    );
    expect(heard).toHaveBeenCalledWith(tokenize);
    stop();
  });
});

describe("the frame's messages", () => {
  it("carry only what contract/frame.ts allows", () => {
    expect(readToFrameMessage({ type: "givekit:tokenize", id: "a", extra: 1 })).toEqual({
      type: "givekit:tokenize",
      id: "a",
    });
    expect(readToFrameMessage({ type: "givekit:tokenize" })).toBeNull();
    expect(
      readFromFrameMessage({
        type: "givekit:token",
        id: "a",
        token: "t",
        brand: "visa",
        last4: "4242",
        cvv: "123",
      }),
    ).toEqual({ type: "givekit:token", id: "a", token: "t", brand: "visa", last4: "4242" });
    expect(readFromFrameMessage({ type: "givekit:token-error", id: "a", code: "Not A Code" })).toBeNull();
    expect(readFromFrameMessage({ type: "givekit:resize", height: Number.NaN })).toBeNull();
    expect(readFromFrameMessage("givekit:frame-ready")).toBeNull();
  });
});
