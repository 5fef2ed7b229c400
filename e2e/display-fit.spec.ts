// The screen for the room fits every screen it is shown on: a projector at 1920x1080 and
// 1280x720, and a guest's phone held upright (390x844, the link opened from a livestream). Each
// element that shows text is measured on its own (getBoundingClientRect): inside the viewport
// and not cut by a box that hides its overflow, nor over another text; only whole rows a list
// had no room for are left out. Names of an ordinary length are shown whole, never cut to "T…". Axe is clean at each size.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { cutNames, outOfView, textGift } from "./display-helpers";
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
