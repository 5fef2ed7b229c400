import { describe, expect, it } from "vitest";
import { CARD_FRAME_SLOT } from "./card-frame";
import { cardFrameOf, cardFrameUrl } from "./open-card-frame";

const PROXY = "https://give.example.org";

describe("the card frame's place: the element's own child, made once", () => {
  it("opens the frame on the proxy, telling it the page's origin, language and campaign (never a look)", () => {
    expect(cardFrameUrl(PROXY, "es", { shortcode: "71777", keyword: "HOPE" })).toBe(
      `${PROXY}/frame/card?origin=${encodeURIComponent(location.origin)}&locale=es&shortcode=71777&keyword=HOPE`,
    );
  });

  it("keeps the frame widget.js opened at the same address, and replaces one at another", () => {
    const host = document.createElement("givekit-donate");
    const src = cardFrameUrl(PROXY, "en", { shortcode: "71777", keyword: "HOPE" });
    const early = cardFrameOf(host, src);
    expect(early.slot).toBe(CARD_FRAME_SLOT);
    expect(early.style.display).toBe("none");
    expect(early.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin allow-forms");
    expect(cardFrameOf(host, src)).toBe(early);
    const spanish = cardFrameOf(host, cardFrameUrl(PROXY, "es", { shortcode: "71777", keyword: "HOPE" }));
    expect(spanish).not.toBe(early);
    expect(host.querySelectorAll("iframe")).toHaveLength(1);
    expect(early.isConnected).toBe(false);
  });
});
