// The screen for the room fits every screen it is shown on: a projector at 1920x1080 and
// 1280x720, and a guest's phone held upright (390x844, the link opened from a livestream). Each
// element that shows text is measured on its own (getBoundingClientRect): inside the viewport
// and not cut by a box that hides its overflow, nor over another text; only whole rows a list
// had no room for are left out. Names of an ordinary length are shown whole, never cut to "T…". Axe is clean at each size.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { textGift } from "./display-helpers";
import { expect, test, withServers } from "./fixtures";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];
/** Gifts texted to the demo campaign (newest last): names of every length, a team's long name. */
const GIFTS = [
  { amount: "9999.99", first_name: "W".repeat(60), last_name: "X" },
  { amount: "25.00", first_name: "Theodora", last_name: "Montgomery" },
  { amount: "120.00", first_name: "Rosa", last_name: "Núñez" },
  { amount: "15.00", first_name: "Bartholomew", last_name: "Quinn" },
  { amount: "40.00", first_name: "Li", last_name: "Wei" },
  { amount: "75.00", first_name: "Maximiliana", last_name: "Oyelaran" },
  { amount: "10.00", first_name: "Sam", last_name: "Ito" },
  { amount: "5.00", first_name: "Priya", last_name: "Raman" },
  { amount: "250.00", first_name: "Chris", last_name: "Doe" },
];
/** Past this many characters a name may be cut (with an ellipsis) rather than shown whole. */
const ORDINARY_NAME = 24;

/**
 * Every element showing text (or the QR code, or the bar) that is past the viewport's edge, cut
 * by an ancestor hiding its overflow, or over another, by its own box and its text's. A list's row wholly out of its list's
 * box is a row left out for room, not a cut one.
 */
async function outOfView(page: Page): Promise<string[]> {
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
async function cutNames(page: Page, longest: number): Promise<string[]> {
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

/** The rows a list shows whole (inside its section's box). */
async function rowsShown(page: Page, list: string): Promise<number> {
  return page.evaluate((part) => {
    const section = document
      .querySelector(`[data-part="${part}"]`)!
      .closest("section")!
      .getBoundingClientRect();
    return [...document.querySelectorAll(`[data-part="${part}"] > li`)].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= section.top - 1 && box.bottom <= section.bottom + 1;
    }).length;
  }, list);
}

test.describe("the display on every screen", () => {
  test("a phone upright, 1280x720 and 1920x1080: every text inside the screen and whole, names uncut, axe clean", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    await withServers(
      { GIVEKIT_PROGRESS_CACHE_S: "1", GIVEKIT_PEERS_CACHE_S: "1" },
      async ({ sandbox, proxy }) => {
        for (const gift of GIFTS) await textGift(sandbox.url, gift);
        for (const viewport of SIZES) {
          const context = await browser.newContext({ viewport });
          const screen = await context.newPage();
          await screen.goto(`${proxy.url}/display/71777/HOPE`);
          await expect(screen.locator('[data-part="wall"] .name')).toHaveCount(8);
          await expect(screen.locator('[data-part="raised"]')).toHaveText(/^\$[\d,.]+$/);
          await expect(screen.locator('[data-part="leaders"] .name').first()).toBeVisible();
          await screen.evaluate(() => document.fonts.ready);
          const size = `${viewport.width}x${viewport.height}`;
          expect(await outOfView(screen), size).toEqual([]);
          expect(await cutNames(screen, ORDINARY_NAME), size).toEqual([]);
          // The call to give and enough of both lists to read: the figures are not all the screen.
          await expect(screen.getByText(/^Text HOPE to 71777/)).toBeInViewport({ ratio: 1 });
          expect(await rowsShown(screen, "wall"), size).toBeGreaterThanOrEqual(3);
          expect(await rowsShown(screen, "leaders"), size).toBe(
            await screen.locator('[data-part="leaders"] > li').count(),
          );
          // One column on the phone: the lists below the figures, not beside them.
          if (viewport.width < viewport.height) {
            const figures = (await screen.locator('[data-part="raised"]').boundingBox())!;
            const latest = (await screen.getByRole("heading", { name: "Latest gifts" }).boundingBox())!;
            expect(latest.y, size).toBeGreaterThan(figures.y + figures.height);
          }
          await screen.screenshot({ path: test.info().outputPath(`display-${size}.png`) });
          const results = await new AxeBuilder({ page: screen }).withTags(WCAG_TAGS).analyze();
          expect(
            results.violations.map(
              (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(" ")}`,
            ),
            size,
          ).toEqual([]);
          await context.close();
        }
      },
    );
  });
});
