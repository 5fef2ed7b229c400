// The donate form's steps counted in Chromium, end to end: donors driven through the demo page
// (dist/demo/index.html), some stopping at each step, one declined, one closing the button's
// dialog, in two channels; the card frame's beacons (widget/frame/form-events.ts) reach the proxy,
// and the staff dashboard shows a funnel equal to what the donors did, step by step and per channel.
import type { Browser, Page } from "@playwright/test";
import { inviteLink, rowsUnder } from "./dashboard-helpers";
import { writeDemo } from "./demo-page";
import { expect, test, withServers } from "./fixtures";
import { cardFrameOf, donateOf, GOOD_CARD } from "./optin-helpers";
import { showStep } from "./donor-helpers";

const DECLINED_CARD = "4000000000000002";
const NEWSLETTER = "?utm_source=newsletter";

type Stop = "shown" | "amount" | "details" | "card" | "declined" | "thanks" | "invalid-name" | "closed";

/** One donor, in a browser of their own, on the demo page, doing as far as `stop` says. */
async function donor(browser: Browser, urls: { host: string; proxy: string }, stop: Stop, search = "") {
  const context = await browser.newContext();
  const page = await context.newPage();
  await writeDemo(page, urls.host, urls.proxy, search);
  const donate = donateOf(page);
  await expect(donate.getByRole("button", { name: "Next" })).toBeVisible();
  if (stop === "closed") {
    // The button's form, opened in its dialog and closed again without a gift.
    const button = page.locator("givekit-button");
    await button.getByRole("button").first().click();
    const dialogForm = button.locator("givekit-donate");
    await expect(dialogForm.getByRole("button", { name: "Next" })).toBeVisible();
    // Its card frame has taken the form's look: the form is shown, and counted so.
    await expect(dialogForm.locator("iframe").contentFrame().locator("html[data-themed]")).toBeAttached();
    await page.keyboard.press("Escape");
    await expect(button.getByRole("dialog")).toBeHidden();
    return page;
  }
  if (stop === "shown") return page;
  await showStep(donate, "About you");
  if (stop === "amount") return page;
  if (stop === "invalid-name") {
    // Next with the donor's fields empty: the first refused is the name's.
    await donate.getByRole("button", { name: "Next" }).click();
    await expect(donate.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
    return page;
  }
  await donate.getByLabel("First name").fill("Lee");
  await donate.getByLabel("Last name").fill("Funnel");
  await donate.getByLabel("E-mail").fill("lee@example.org");
  await showStep(donate, "Payment");
  if (stop === "details") return page;
  const card = cardFrameOf(page);
  await card.getByLabel("Card number").fill(stop === "declined" ? DECLINED_CARD : GOOD_CARD.number);
  await card.getByLabel("Expiry date").fill(GOOD_CARD.expiry);
  await card.getByLabel("Security code").fill(GOOD_CARD.cvv);
  if (stop === "card") {
    await expect(donate.getByRole("button", { name: /^Donate / })).toBeEnabled();
    return page;
  }
  await donate.getByRole("button", { name: /^Donate / }).click();
  if (stop === "declined")
    await expect(donate.getByRole("alert")).toContainText("declined", { timeout: 15_000 });
  else await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
  return page;
}

test.describe("the donate form's steps, counted", () => {
  test("donors on the demo page stop at each step; the dashboard's funnel is what they did, by step and channel", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    await withServers({ GIVEKIT_DASHBOARD_LIVE_S: "1" }, async ({ sandbox, proxy, host }) => {
      const urls = { host: host.url, proxy: proxy.url };
      // Direct (no channel): one of each stop, one closing the button's dialog (its page's own
      // form is shown too). From the newsletter: one stopping at the form, one refused for the
      // name, one leaving with the card entered, one giving.
      const direct: Stop[] = ["shown", "amount", "details", "declined", "thanks", "closed"];
      const newsletter: Stop[] = ["shown", "invalid-name", "card", "thanks"];
      const pages: Page[] = [];
      for (const stop of direct) pages.push(await donor(browser, urls, stop));
      for (const stop of newsletter) pages.push(await donor(browser, urls, stop, NEWSLETTER));

      // The pages stay open: each frame sends what it counted a moment after the donor's last step.
      const dashboard = await (await browser.newContext()).newPage();
      await dashboard.goto(await inviteLink(proxy, sandbox.url));
      await expect(dashboard).toHaveURL(`${proxy.url}/dashboard?period=today`);
      // Shown: 7 direct (the dialog's form and its page's) + 4; a gift chosen: 4 + 3; details: 3 + 2;
      // the card: 2 + 2; sent: 2 + 1; thanked: 1 + 1.
      const expected = [
        "Form shown | 11 | 4 (36.4%) | closed the form: 1",
        "Gift chosen | 7 | 2 (28.6%) | name refused: 1",
        "Details given | 5 | 1 (20%) | ",
        "Card entered | 4 | 1 (25%) | ",
        "Gift sent | 3 | 1 (33.3%) | card declined: 1",
        "Thank-you | 2 | 0 (0%) | ",
      ];
      await expect(async () => {
        await dashboard.reload();
        expect(await rowsUnder(dashboard, "Where donors stop")).toEqual(expected);
      }).toPass({ timeout: 20_000 });
      expect(await rowsUnder(dashboard, "By channel")).toEqual([
        "direct | 7 | 1 | 14.3%",
        "newsletter | 4 | 1 | 25%",
      ]);
      // Playwright's desktop viewport (1280 px): every form counted as a larger screen.
      expect(await rowsUnder(dashboard, "By device")).toEqual(["Larger screen | 11 | 2 | 18.2%"]);
      // Nothing personal went with the beacons: no address, name or e-mail in what was logged of them.
      const beaconLines = proxy.logs.filter((line) => line.includes("/v1/form-events"));
      expect(beaconLines.length).toBeGreaterThan(0);
      for (const line of beaconLines) {
        expect(line).not.toContain("127.0.0.1");
        expect(line).not.toContain("lee@example.org");
        expect(line).not.toContain("Funnel");
      }
      for (const page of pages) await page.context().close();
    });
  });
});
