import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  completeDonation,
  completeOptin,
  donateOf,
  fillOptin,
  optinOf,
  uniqueMobile,
  uniqueName,
} from "./optin-helpers";

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const WIDGETS = { donate: "givekit-donate", optin: "givekit-optin" } as const;

/** Axe's findings for one widget (its shadow tree and, for donate, the card frame), made readable. */
async function violations(page: Page, selector: string) {
  // Contrast is judged on the settled page, not halfway through a fade-in.
  await page.evaluate(async () => {
    const hosts = [...document.querySelectorAll("givekit-donate, givekit-optin")];
    const running = hosts.flatMap((host) => host.shadowRoot?.getAnimations() ?? []);
    await Promise.all(running.map((animation) => animation.finished));
  });
  const results = await new AxeBuilder({ page }).include(selector).withTags(WCAG_TAGS).analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({ target: node.target, fix: node.failureSummary })),
  }));
}

async function openBothWidgets(page: Page, hostUrl: string) {
  await page.goto(`${hostUrl}/embed-script.html`);
  await expect(optinOf(page).getByRole("button", { name: "Subscribe" })).toBeVisible();
  await expect(donateOf(page).getByRole("button", { name: /^Donate / })).toBeVisible();
  await expect(donateOf(page).locator("iframe").contentFrame().getByLabel("Card number")).toBeVisible();
}

test.describe("axe (WCAG 2.2 A and AA): zero violations", () => {
  test("opt-in, empty", async ({ page, hostUrl }) => {
    await openBothWidgets(page, hostUrl);
    expect(await violations(page, WIDGETS.optin)).toEqual([]);
  });

  test("opt-in, errors shown", async ({ page, hostUrl }) => {
    await openBothWidgets(page, hostUrl);
    const optin = optinOf(page);
    await fillOptin(optin, "555010123", { consent: false });
    await optin.getByRole("button", { name: "Subscribe" }).click();
    await expect(optin.getByRole("status")).toHaveText("Please fix 2 fields.");
    expect(await violations(page, WIDGETS.optin)).toEqual([]);
  });

  test("opt-in, subscribed", async ({ page, hostUrl }) => {
    await openBothWidgets(page, hostUrl);
    await completeOptin(page, uniqueMobile());
    expect(await violations(page, WIDGETS.optin)).toEqual([]);
  });

  test("donate, empty", async ({ page, hostUrl }) => {
    await openBothWidgets(page, hostUrl);
    expect(await violations(page, WIDGETS.donate)).toEqual([]);
  });

  test("donate, errors shown", async ({ page, hostUrl }) => {
    await openBothWidgets(page, hostUrl);
    const donate = donateOf(page);
    await donate.getByRole("button", { name: /^Donate / }).click();
    await expect(donate.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
    expect(await violations(page, WIDGETS.donate)).toEqual([]);
  });

  test("donate in steps: each step, and a step refused", async ({ page, hostUrl }) => {
    await page.goto(`${hostUrl}/steps.html?fields=phone:required,address,memo,pledge-wall,sms,anonymous`);
    const donate = donateOf(page);
    await expect(donate.getByRole("button", { name: "Next" })).toBeVisible();
    expect(await violations(page, WIDGETS.donate)).toEqual([]);
    await donate.getByRole("button", { name: "Next" }).click();
    await donate.getByRole("button", { name: "Next" }).click();
    await expect(donate.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
    expect(await violations(page, WIDGETS.donate)).toEqual([]);
    await donate.getByLabel("First name").fill("Ada");
    await donate.getByLabel("Last name").fill("Lovelace");
    await donate.getByLabel("E-mail").fill("ada@example.org");
    await donate.getByLabel("Phone", { exact: true }).fill("(555) 010-1234");
    await donate.getByRole("button", { name: "Next" }).click();
    await expect(donate.getByRole("button", { name: /^Donate / })).toBeVisible();
    expect(await violations(page, WIDGETS.donate)).toEqual([]);
    // Every check box is a target of 24 × 24 px at least (WCAG 2.5.8).
    await donate.getByRole("button", { name: "Back" }).click();
    for (const box of await donate.getByRole("checkbox").all()) {
      const { width, height } = (await box.boundingBox())!;
      expect(Math.min(width, height)).toBeGreaterThanOrEqual(24);
    }
  });

  test("donate: the monthly invitation shown, a dedication with its field refused", async ({
    page,
    hostUrl,
  }) => {
    await page.goto(`${hostUrl}/toolkit.html`);
    const donate = donateOf(page);
    await donate.getByRole("radio", { name: "$100" }).check();
    await expect(donate.getByRole("group", { name: "Make it $34 a month instead?" })).toBeVisible();
    expect(await violations(page, WIDGETS.donate)).toEqual([]);
    await donate.getByRole("button", { name: "Next" }).click();
    await donate.getByRole("checkbox", { name: "Dedicate my gift to someone" }).check();
    await donate.getByLabel(/E-mail someone about my gift/).fill("jane@");
    await donate.getByRole("button", { name: "Next" }).click();
    await expect(donate.getByLabel("Their name")).toHaveAttribute("aria-invalid", "true");
    expect(await violations(page, WIDGETS.donate)).toEqual([]);
  });

  test("donate, thank-you shown", async ({ page, hostUrl }) => {
    await openBothWidgets(page, hostUrl);
    await completeDonation(page, { first: "Ada", last: uniqueName("Axe"), email: "ada@example.org" });
    expect(await violations(page, WIDGETS.donate)).toEqual([]);
  });
});

/** Whether the page scrolls sideways, and which widget controls fall outside the viewport. */
async function reflowProblems(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width) {
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px > ${width}px`);
    }
    for (const host of document.querySelectorAll("givekit-donate, givekit-optin")) {
      const controls = host.shadowRoot!.querySelectorAll<HTMLElement>(
        "input, select, textarea, button, a, iframe",
      );
      for (const control of controls) {
        const box = control.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.left < 0 || box.right > width + 0.5) {
          const name = control.getAttribute("aria-label") ?? (control.id || control.textContent);
          problems.push(
            `${host.localName} ${control.localName}#${name}: ${box.left}..${box.right} of ${width}px`,
          );
        }
      }
    }
    return problems;
  });
}

for (const [label, viewport, deviceScaleFactor] of [
  ["320 px wide", { width: 320, height: 640 }, 1],
  // 200 % browser zoom of a 1280 × 720 window: a 640 × 360 CSS-pixel viewport at 2 device pixels per px.
  ["200 % zoom", { width: 640, height: 360 }, 2],
] as const) {
  test.describe(`reflow at ${label}`, () => {
    test.use({ viewport, deviceScaleFactor });

    test("no sideways scrolling, every control inside the viewport, and both forms complete", async ({
      page,
      sandbox,
      hostUrl,
    }) => {
      await openBothWidgets(page, hostUrl);
      expect(await reflowProblems(page)).toEqual([]);

      const mobile = uniqueMobile();
      await completeOptin(page, mobile);
      expect((await sandbox.subscriptions()).some((row) => row.mobilenumber === mobile)).toBe(true);

      const last = uniqueName("Reflow");
      await completeDonation(page, { first: "Ada", last, email: "ada@example.org" });
      expect(await reflowProblems(page)).toEqual([]);
      const rows = await sandbox.transactions({ keyword: "HOPE" });
      expect(rows.filter((row) => row.last_name === last)).toHaveLength(1);
    });
  });
}

/** Elements in either widget that still animate or transition. */
async function movingElements(page: Page) {
  return page.evaluate(() => {
    const moving: string[] = [];
    for (const host of document.querySelectorAll("givekit-donate, givekit-optin")) {
      for (const element of host.shadowRoot!.querySelectorAll("*")) {
        const style = getComputedStyle(element);
        const animated =
          style.animationName !== "none" && style.animationDuration.split(",").some((d) => parseFloat(d) > 0);
        const transitioned = style.transitionDuration.split(",").some((d) => parseFloat(d) > 0);
        if (animated || transitioned)
          moving.push(`${host.localName} ${element.localName}.${element.className}`);
      }
    }
    return moving;
  });
}

test.describe("prefers-reduced-motion", () => {
  test("honoured: nothing in either widget animates or transitions", async ({ page, hostUrl }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openBothWidgets(page, hostUrl);
    expect(await movingElements(page)).toEqual([]);
    await completeOptin(page, uniqueMobile());
    expect(await movingElements(page)).toEqual([]);
  });

  test("without the preference the confirmation does animate in", async ({ page, hostUrl }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await openBothWidgets(page, hostUrl);
    await completeOptin(page, uniqueMobile());
    const animation = await optinOf(page)
      .locator(".gk-success")
      .evaluate((element) => getComputedStyle(element).animationName);
    expect(animation).toBe("gk-optin-appear");
  });
});
