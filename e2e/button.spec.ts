/**
 * <givekit-button> in a page header: the donate form opens in a modal dialog, its code and card
 * frame fetched only as the donor reaches for the button; a gift goes through (one charge in
 * the sandbox's own report); Escape does not close the dialog while the donation is in flight,
 * and closing gives the focus back to the button.
 */
import { readFileSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import { fileURLToPath } from "node:url";
import type { Page, Route } from "@playwright/test";
import {
  cardOf,
  chooseAndFillDonor,
  donateOf,
  expectOneCharge,
  fillCardAtOnce,
  reachDonate,
  TOTAL,
  uniqueLastName,
} from "./donor-helpers";
import { expect, test } from "./fixtures";

/** What a page asked of the proxy: widget files by name ("donate", "button-en" …) and the card frame. */
function recordAsked(page: Page, proxyUrl: string): string[] {
  const asked: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(proxyUrl)) return;
    const path = new URL(url).pathname;
    if (path === "/frame/card") asked.push("card frame");
    const chunk = /^\/assets\/((?:donate|button|all)(?:-en|-es)?)-[\w-]{8}\.js$/.exec(path);
    if (chunk) asked.push(chunk[1]!);
  });
  return asked;
}

const buttonOf = (page: Page) => page.locator("givekit-button");

test("a Donate button in the header opens the form in a dialog, and the donor gives once", async ({
  page,
  sandbox,
  proxyServer,
  hostUrl,
}) => {
  const asked = recordAsked(page, proxyServer.url);
  await page.goto(`${hostUrl}/button.html`);
  const open = buttonOf(page).getByRole("button", { name: "Donate", exact: true });
  await expect(open).toBeVisible();
  // The page's theme (!important on * and body) does not reach the button's text.
  expect(
    await open.evaluate((button) => {
      const style = getComputedStyle(button);
      return [style.color, style.textTransform, style.letterSpacing, style.fontWeight, style.fontStyle];
    }),
  ).toEqual(["rgb(255, 255, 255)", "none", "normal", "700", "normal"]);
  // Nor its line height (28px/3 on body): the element is the button's own box, 44 px high.
  expect((await buttonOf(page).boundingBox())!.height).toBe(44);
  expect((await open.boundingBox())!.height).toBe(44);
  await page.waitForLoadState("networkidle");
  expect(asked.toSorted()).toEqual(["button", "button-en"]);
  const dialog = page.getByRole("dialog", { name: "Donate" });
  await expect(dialog).toBeHidden();

  // Reaching for the button fetches the form's code and words; the card frame waits for the click.
  await open.hover();
  await expect.poll(() => asked.toSorted()).toEqual(["button", "button-en", "donate", "donate-en"]);
  await page.waitForLoadState("networkidle");
  expect(asked).not.toContain("card frame");

  await open.click();
  await expect(dialog).toBeVisible();
  await expect(page.getByRole("button", { name: "Close" })).toBeFocused();
  // The form asks in steps; its card frame is on the page from the first.
  await expect(donateOf(page).getByRole("radio", { name: "$50" })).toBeVisible();
  await expect.poll(() => asked).toContain("card frame");
  // The page behind is inert while the dialog is open.
  expect(
    await page.locator("header a").evaluate((link: HTMLElement) => {
      link.focus();
      return document.activeElement === link;
    }),
  ).toBe(false);

  const lastName = uniqueLastName("Button");
  await chooseAndFillDonor(page, lastName);
  const give = await reachDonate(donateOf(page), `Donate $${TOTAL}`);
  await fillCardAtOnce(cardOf(page));
  // The donation is held at the proxy's door while the donor tries to close the dialog.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const sent = new Promise<void>((resolve) => (reached = resolve));
  await page.route(`${proxyServer.url}/v1/donations`, async (route: Route) => {
    if (route.request().method() === "POST") {
      reached();
      await held;
    }
    await route.continue();
  });
  // Every close of the dialog, counted in the page.
  await buttonOf(page).evaluate((button) => {
    const counted = window as unknown as { dialogCloses: number };
    counted.dialogCloses = 0;
    button.shadowRoot!.querySelector("dialog")!.addEventListener("close", () => (counted.dialogCloses += 1));
  });
  const closes = () => page.evaluate(() => (window as unknown as { dialogCloses: number }).dialogCloses);
  await give.click();
  await sent;
  // Escape is refused: the dialog never closes.
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeVisible();
  expect(await closes()).toBe(0);
  // A second Escape in a row the browser carries out anyway: the dialog opens again at once.
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await expect(donateOf(page).getByRole("button", { name: /Processing your donation/ })).toBeVisible();
  release();
  await expectOneCharge(page, sandbox, lastName);

  // Done: Escape closes, and the focus is back on the button in the header.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  // Opened again: the same form, showing its thanks, without a second frame.
  await open.click();
  await expect(donateOf(page).getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  expect(asked.filter((file) => file === "card frame")).toHaveLength(1);
});

test("the button opens the form by keyboard, in Spanish, under the README's Content-Security-Policy", async ({
  page,
  proxyServer,
  hostUrl,
  hostServer,
}) => {
  const readme = readFileSync(fileURLToPath(new URL("../widget/README.md", import.meta.url)), "utf8");
  const policy = /^Content-Security-Policy: (.+)$/m.exec(readme)![1]!;
  hostServer.setPageHeaders("button-csp.html", {
    "Content-Security-Policy": policy.replaceAll("https://give.example.org", new URL(proxyServer.url).origin),
  });
  await page.goto(`${hostUrl}/button-csp.html`);
  const open = buttonOf(page).getByRole("button", { name: "Done hoy" });
  await expect(open).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(open).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Done hoy" });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole("button", { name: "Cerrar" })).toBeFocused();
  await expect(donateOf(page).getByRole("heading", { name: "Haga una donación" })).toBeVisible();
  // layout="single", handed on: the card is on the one page, its frame loaded under the policy.
  await expect(cardOf(page).getByLabel("Número de tarjeta")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
    [],
  );
});

test("axe (WCAG 2.2 A and AA) finds nothing in the button, closed and open", async ({ page, hostUrl }) => {
  const findings = async () =>
    (
      await new AxeBuilder({ page })
        .include("givekit-button")
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze()
    ).violations.map((violation) => ({
      rule: violation.id,
      nodes: violation.nodes.map((node) => node.target),
    }));
  await page.goto(`${hostUrl}/button.html`);
  const open = buttonOf(page).getByRole("button", { name: "Donate", exact: true });
  await expect(open).toBeVisible();
  expect(await findings()).toEqual([]);
  await open.click();
  await expect(donateOf(page).getByRole("radio", { name: "$50" })).toBeVisible();
  expect(await findings()).toEqual([]);
});
