// A page with nothing but the two lines of the snippet (no CSS of its own) and a line of text
// below: widget.js gives the form its room before the page is drawn, so nothing moves from
// navigation until a second after the form is ready, on a desktop and on a small phone; and the
// card frame keeps the height it first reported.
import { expect, test } from "./fixtures";
import { cardOf, cumulativeLayoutShift, donateOf, MAX_CLS } from "./donor-helpers";

/** How long after the form is ready shifts still count: a frame reporting its height late moves things too. */
const SETTLE_MS = 1000;

for (const page of ["snippet.html", "snippet-single.html"])
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 360, height: 740 },
  ]) {
    test(`${page}: layout shift ≤ ${MAX_CLS} until ${SETTLE_MS} ms after the form is ready (${viewport.width}x${viewport.height})`, async ({
      page: tab,
      hostUrl,
    }) => {
      await tab.setViewportSize(viewport);
      await tab.goto(`${hostUrl}/${page}`);
      await expect(donateOf(tab).getByRole("button", { name: /^(Next|Donate)/ })).toBeVisible();
      await expect(cardOf(tab).getByLabel("Card number")).toBeAttached();
      await tab.waitForTimeout(SETTLE_MS);
      const shift = await cumulativeLayoutShift(tab);
      test.info().annotations.push({ type: "CLS", description: shift.toFixed(4) });
      expect(shift).toBeLessThanOrEqual(MAX_CLS);
    });
  }

test("the card frame reports one height per load, never an unstyled one first (20 loads)", async ({
  page,
  hostUrl,
}) => {
  // Every height the frame tells the page, as the page's window receives it.
  await page.addInitScript(() => {
    const heights: number[] = [];
    Object.assign(window, { frameHeights: heights });
    addEventListener("message", (event) => {
      const data = event.data as { type?: string; height?: number };
      if (data?.type === "givekit:resize" && typeof data.height === "number") heights.push(data.height);
    });
  });
  const seen = new Set<string>();
  for (let load = 0; load < 20; load++) {
    await page.goto(`${hostUrl}/snippet-single.html`);
    await expect(cardOf(page).getByLabel("Card number")).toBeVisible();
    await page.waitForTimeout(200);
    const heights = await page.evaluate(() => (window as unknown as { frameHeights: number[] }).frameHeights);
    expect(heights.length).toBeGreaterThan(0);
    seen.add(heights.join(","));
    expect(new Set(heights).size, `heights reported in load ${load + 1}: ${heights.join(", ")}`).toBe(1);
  }
  test.info().annotations.push({ type: "heights per load", description: [...seen].join(" | ") });
});
