import { readFileSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { DEMO_DIR, writeDemo } from "./demo-page";
import { expect, test } from "./fixtures";
import {
  completeDonation,
  completeOptin,
  donateOf,
  consentsOf,
  optinOf,
  shownMoney,
  sumCents,
  uniqueMobile,
  uniqueName,
} from "./optin-helpers";

/** Opens the built demo page (demo-page.ts) and waits until its forms are ready. */
async function openDemo(page: Page, hostUrl: string, proxyUrl: string) {
  await writeDemo(page, hostUrl, proxyUrl);
  await expect(optinOf(page).getByRole("button", { name: "Subscribe" })).toBeVisible();
  // The demo asks in steps: its form is ready when its first step is.
  await expect(donateOf(page).getByRole("button", { name: "Next" })).toBeVisible();
}

test.describe("the demo campaign page (dist/demo/index.html)", () => {
  test("keeps the classic script tag, and its snippets name the proxy", async ({
    page,
    proxyServer,
    hostUrl,
  }) => {
    const built = readFileSync(`${DEMO_DIR}index.html`, "utf8");
    expect(built).toMatch(/<script\s+src="__GIVEKIT_PROXY__\/widget\.js" async><\/script>/);
    await openDemo(page, hostUrl, proxyServer.url);
    const snippet = page.locator("#snippet-donate");
    await expect(snippet).toHaveText(
      `<script src="${proxyServer.url}/widget.js" async></script>\n<givekit-donate shortcode="71777" keyword="HOPE"></givekit-donate>`,
    );
    await expect(page.locator("#snippet-optin")).toContainText(`<givekit-optin list="Hope Alerts"`);
    await expect(
      page.locator("givekit-goal").getByRole("progressbar", { name: "Progress toward the goal" }),
    ).toBeVisible();
  });

  test("the goal is live: it shows what the sandbox collected, and moves when someone gives on the page", async ({
    page,
    proxyServer,
    sandbox,
    hostUrl,
  }) => {
    /** The sandbox's own sum of the Hope Walk's collected gifts, as the element words it. */
    const raisedText = async () => {
      const cents = sumCents(await sandbox.transactions({ keyword: "HOPE", status: "collected" }), "amount");
      return { cents, text: `${shownMoney(cents)} raised` };
    };
    await openDemo(page, hostUrl, proxyServer.url);
    const goal = page.locator("givekit-goal");
    const before = await raisedText();
    await expect(goal.getByText(before.text, { exact: true })).toBeVisible();
    await expect(goal.getByRole("progressbar")).toHaveAttribute(
      "aria-valuenow",
      String(Math.min(100, Math.floor(before.cents / 25_000))),
    );

    await completeDonation(page, { first: "Ada", last: uniqueName("Goal"), email: "ada@example.org" });
    const after = await raisedText();
    expect(after.cents).toBeGreaterThan(before.cents);
    // No reload: the element heard the form's givekit:donation and asked the proxy again.
    await expect(goal.getByText(after.text, { exact: true })).toBeVisible();
  });

  test("the whole page has no WCAG 2.2 A/AA violation, and an opt-in from it is recorded", async ({
    page,
    proxyServer,
    sandbox,
    hostUrl,
  }) => {
    await openDemo(page, hostUrl, proxyServer.url);
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(
      results.violations.map((violation) => ({
        rule: violation.id,
        nodes: violation.nodes.map((n) => n.target),
      })),
    ).toEqual([]);

    const mobile = uniqueMobile();
    await completeOptin(page, mobile);
    expect((await sandbox.subscriptions()).filter((row) => row.mobilenumber === mobile)).toMatchObject([
      { list: "Hope Alerts" },
    ]);
    await expect
      .poll(() => consentsOf(proxyServer.dataDir, mobile))
      .toMatchObject([{ outcome: "subscribed" }]);
  });

  test.describe("at 320 px", () => {
    test.use({ viewport: { width: 320, height: 640 } });

    test("nothing scrolls sideways", async ({ page, proxyServer, hostUrl }) => {
      await openDemo(page, hostUrl, proxyServer.url);
      const widths = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    });
  });
});
