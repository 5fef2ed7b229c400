import { expect, GIVEKIT_SOURCE, test } from "./fixtures";
import { HOPE_CONTEXT } from "./donor-helpers";
import {
  completeDonation,
  completeOptin,
  consentsOf,
  optinOf,
  uniqueMobile,
  uniqueName,
} from "./optin-helpers";

/** The three ways to put givekit on a page, one host page each. */
const MODES = [
  ["the script tag", "embed-script.html"],
  ["an ES module import calling defineElements()", "embed-module.html"],
  ["mount() from the page's own script", "embed-mount.html"],
] as const;

for (const [mode, pagePath] of MODES) {
  test.describe(`embedded with ${mode}`, () => {
    test("both elements render and say they are ready", async ({ page, hostUrl }) => {
      await page.goto(`${hostUrl}/${pagePath}`);
      await expect(optinOf(page).getByRole("button", { name: "Subscribe" })).toBeVisible();
      await expect
        .poll(() =>
          page.evaluate(() =>
            (window as unknown as { givekitEvents: { type: string; detail: unknown }[] }).givekitEvents
              .filter((event) => event.type === "givekit:ready")
              .map((event) => event.detail),
          ),
        )
        .toEqual(
          expect.arrayContaining([
            { widget: "optin" },
            { widget: "donate", ...HOPE_CONTEXT, frequency: expect.any(String) },
          ]),
        );
    });

    test("an SMS opt-in reaches the sandbox and the consent records", async ({
      page,
      sandbox,
      proxyServer,
      hostUrl,
    }) => {
      const mobile = uniqueMobile();
      await page.goto(`${hostUrl}/${pagePath}`);
      await completeOptin(page, mobile);
      expect((await sandbox.subscriptions()).filter((row) => row.mobilenumber === mobile)).toMatchObject([
        { list: "Hope Alerts", firstname: "Ada", lastname: "Lovelace" },
      ]);
      await expect
        .poll(() => consentsOf(proxyServer.dataDir, mobile))
        .toMatchObject([{ list: "Hope Alerts", outcome: "subscribed" }]);
    });

    test("a donation with the test card is charged once in the sandbox", async ({
      page,
      sandbox,
      hostUrl,
    }) => {
      const last = uniqueName("Embed");
      await page.goto(`${hostUrl}/${pagePath}`);
      await completeDonation(page, { first: "Ada", last, email: "ada@example.org" });
      const rows = (await sandbox.transactions({ keyword: "HOPE" })).filter((row) => row.last_name === last);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        donation_amount: "25.00",
        last_4: "4242",
        source: expect.stringMatching(GIVEKIT_SOURCE),
      });
    });
  });
}
