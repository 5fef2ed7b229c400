/**
 * The donor's path in a browser that shows scroll bars, as desktop browsers do (headless
 * Chromium hides them). A scroll bar inside the card frame narrows it, so its fields reflow
 * and its height changes; the page resizes it, the scroll bar goes, and back: the form
 * jumped while the donor pressed the button. The frame must report one height and hold it.
 */
import config from "../playwright.config";
import {
  TOTAL,
  cardOf,
  chooseAndFillDonor,
  donateOf,
  expectOneCharge,
  fillCardAtOnce,
  pressAndRelease,
  uniqueLastName,
} from "./donor-helpers";
import { expect, test } from "./fixtures";

test.use({
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ["--hide-scrollbars"] },
});

test("in a 280 px sidebar the card frame reports one height, and a click gives, once", async ({
  page,
  sandbox,
  hostUrl,
}) => {
  await page.addInitScript(() => {
    const heights: number[] = [];
    (window as unknown as { frameHeights: number[] }).frameHeights = heights;
    window.addEventListener("message", (event) => {
      if (event.data?.type === "givekit:resize") heights.push(event.data.height);
    });
  });
  const lastName = uniqueLastName("Sidebar");
  await page.goto(`${hostUrl}/sidebar.html`);
  await expect(cardOf(page).getByLabel("Card number")).toBeVisible();
  await chooseAndFillDonor(page, lastName);
  await fillCardAtOnce(cardOf(page));
  const { pressed, released } = await pressAndRelease(
    page,
    donateOf(page).getByRole("button", { name: `Donate $${TOTAL}` }),
  );
  expect(released).toEqual(pressed);
  await expectOneCharge(page, sandbox, lastName);
  const heights = await page.evaluate(() => (window as unknown as { frameHeights: number[] }).frameHeights);
  expect(heights.length).toBeGreaterThan(0);
  expect(new Set(heights).size).toBe(1);
});
