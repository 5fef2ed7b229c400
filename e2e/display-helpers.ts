/** The screens for the room (wall and display) as the browser tests feed them. */
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** A gift texted to the demo campaign in the sandbox, shown on the pledge wall unless `gift` says not. */
export async function textGift(sandboxUrl: string, gift: Record<string, unknown>) {
  const response = await fetch(`${sandboxUrl}/_sandbox/text-gifts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      shortcode: "71777",
      keyword: "HOPE",
      phone: "2025550143",
      pledge_wall: true,
      ...gift,
    }),
  });
  expect(response.status).toBe(201);
}

/**
 * Every element showing text (or the QR code, or the bar) that is past the viewport's edge, cut
 * by an ancestor hiding its overflow, or over another, by its own box and its text's. A list's row wholly out of its list's
 * box is a row left out for room, not a cut one.
 */
export async function outOfView(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Box = { left: number; top: number; right: number; bottom: number };
    const viewport: Box = {
      left: 0,
      top: 0,
      right: document.documentElement.clientWidth,
      bottom: document.documentElement.clientHeight,
    };
    const meet = (a: Box, b: Box): Box => ({
      left: Math.max(a.left, b.left),
      top: Math.max(a.top, b.top),
      right: Math.min(a.right, b.right),
      bottom: Math.min(a.bottom, b.bottom),
    });
    const round = (box: Box) =>
      `${Math.round(box.left)},${Math.round(box.top)}..${Math.round(box.right)},${Math.round(box.bottom)}`;
    const out: string[] = [];
    /** Where each text shown is, to find two texts over each other. */
    const shown: { element: HTMLElement; name: string; box: Box }[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      const showsText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== "",
      );
      if (!showsText && !element.matches(".qr, .bar")) continue;
      if (element.closest("[hidden]") || element.checkVisibility() === false) continue;
      const box = element.getBoundingClientRect();
      let room = viewport;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX !== "visible" || style.overflowY !== "visible")
          room = meet(room, parent.getBoundingClientRect());
      }
      const name = `${element.localName}.${element.className} "${(element.textContent ?? "").slice(0, 30)}"`;
      const seen = meet(box, room);
      if (seen.right <= seen.left || seen.bottom <= seen.top) {
        if (!element.closest("li")) out.push(`${name} not shown: ${round(box)} outside ${round(room)}`);
        continue;
      }
      // The text itself, which may run past its own box: measured by a range over it. An
      // ellipsis is the name check's business (cutNames), not this one's.
      const own = getComputedStyle(element);
      const ellipsised = own.textOverflow === "ellipsis" && own.overflowX !== "visible";
      const range = document.createRange();
      range.selectNodeContents(element);
      const text = range.getBoundingClientRect();
      const inside = (inner: Box, outer: Box) =>
        inner.left >= outer.left - 1 &&
        inner.top >= outer.top - 1 &&
        inner.right <= outer.right + 1 &&
        inner.bottom <= outer.bottom + 1;
      if (!inside(box, room)) out.push(`${name} cut: ${round(box)} in ${round(room)}`);
      else if (
        showsText &&
        !ellipsised &&
        !inside(text, own.overflowX === "visible" ? room : meet(room, box))
      )
        out.push(`${name}: its text ${round(text)} runs out of ${round(room)}`);
      shown.push({ element, name, box: showsText && !ellipsised ? text : box });
    }
    for (const [index, a] of shown.entries())
      for (const b of shown.slice(index + 1)) {
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const both = meet(a.box, b.box);
        if (both.right - both.left > 1 && both.bottom - both.top > 1)
          out.push(`${a.name} ${round(a.box)} over ${b.name} ${round(b.box)}`);
      }
    return out;
  });
}

/** Texts shown cut with an ellipsis (their content wider than their box), ordinary names among them. */
export async function cutNames(page: Page, longest: number): Promise<string[]> {
  return page.evaluate(
    (most) =>
      [...document.querySelectorAll<HTMLElement>(".name, h1")]
        .filter((element) => element.textContent!.length <= most && element.checkVisibility())
        .filter(
          (element) =>
            element.getBoundingClientRect().bottom <=
            element.closest("section, main")!.getBoundingClientRect().bottom,
        )
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .map((element) => `${element.textContent} (${element.clientWidth} px of ${element.scrollWidth})`),
    longest,
  );
}
