/**
 * The card frame's cheap bot filters in Chromium: a bot that fills the hidden honeypot or gives
 * the instant the form appears (its form session, timed by the proxy, too young) is told its card
 * was declined and reaches no upstream; a person
 * who takes the time a person takes gives once. A proxy of its own, with a real minimum form
 * time (the shared one has none, as its tests give at machine speed).
 */
import { test as base } from "@playwright/test";
import type { SandboxHandle } from "../test/helpers/sandbox";
import {
  TOTAL,
  cardOf,
  chooseAndFillDonor,
  donateOf,
  expectOneCharge,
  fillCardAtOnce,
  openGivingPage,
  uniqueLastName,
} from "./donor-helpers";
import { expect, withServers, type Servers } from "./fixtures";

/** Long enough that the bot's instant submit falls well inside it even on a loaded machine. */
const MIN_FORM_MS = 5000;
/** Past MIN_FORM_MS since the frame started, with room for its session request. */
const SESSION_AGE_MS = MIN_FORM_MS + 1000;
const CARD_PATHS = new Set(["/api/v2/donations/create_payment_token", "/api/v2/donations/donate"]);
const DECLINED =
  "Your card was declined, so nothing was charged. Check the card details or use another card.";

const test = base.extend<{}, { stack: Servers }>({
  stack: [
    // oxlint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use) =>
      withServers({ GIVEKIT_MIN_FORM_MS: String(MIN_FORM_MS), GIVEKIT_RATE_PAYMENT_TOKENS: "1000" }, use),
    { scope: "worker" },
  ],
});

/** Card tokenizations and donations the sandbox received: what reached the upstream. */
async function cardCalls(sandbox: SandboxHandle): Promise<number> {
  return (await sandbox.requests()).filter((request) => CARD_PATHS.has(request.path)).length;
}

const giveButton = (page: Parameters<typeof donateOf>[0]) =>
  donateOf(page).getByRole("button", { name: `Donate $${TOTAL}` });

test.describe("cheap bot filters in the card frame", () => {
  test("a bot giving the instant the form appears is told 'declined'; nothing reaches the upstream", async ({
    page,
    stack,
  }) => {
    const lastName = uniqueLastName("Hasty");
    const before = await cardCalls(stack.sandbox);
    await openGivingPage(page, stack.host.url);
    await chooseAndFillDonor(page, lastName);
    await fillCardAtOnce(cardOf(page));
    await giveButton(page).click();
    await expect(donateOf(page).getByText(DECLINED)).toBeVisible();
    expect(await cardCalls(stack.sandbox)).toBe(before);
    expect(stack.proxy.logs.join("\n")).toContain('"filtered":"too_fast"');
  });

  test("a bot filling the hidden honeypot is told 'declined'; a person never meets the field", async ({
    page,
    stack,
  }) => {
    const lastName = uniqueLastName("Honey");
    const before = await cardCalls(stack.sandbox);
    await openGivingPage(page, stack.host.url);
    const card = cardOf(page);
    const honeypot = card.locator('input[name="website"]');
    // Out of the accessibility tree and the tab order: a keyboard never lands on it.
    await expect(card.getByRole("textbox")).toHaveCount(3);
    expect(await honeypot.evaluate((input) => (input as HTMLInputElement).tabIndex)).toBe(-1);
    await chooseAndFillDonor(page, lastName);
    await fillCardAtOnce(card);
    // A form-filling bot writes into every input it finds.
    await honeypot.evaluate((input) => {
      (input as HTMLInputElement).value = "https://spam.example";
    });
    await card.locator("body").evaluate(async (_body, wait) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait - performance.now())));
    }, SESSION_AGE_MS);
    await giveButton(page).click();
    await expect(donateOf(page).getByText(DECLINED)).toBeVisible();
    expect(await cardCalls(stack.sandbox)).toBe(before);
    expect(stack.proxy.logs.join("\n")).toContain('"filtered":"honeypot"');
  });

  test("a person who takes a person's time gives, once", async ({ page, stack }) => {
    const lastName = uniqueLastName("Patient");
    await openGivingPage(page, stack.host.url);
    await chooseAndFillDonor(page, lastName);
    await fillCardAtOnce(cardOf(page));
    // The frame has been open as long as the proxy asks before the donor gives (timed by the
    // proxy from the form session the frame asked for as it opened, a moment after it started).
    await cardOf(page)
      .locator("body")
      .evaluate(async (_body, wait) => {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait - performance.now())));
      }, SESSION_AGE_MS);
    await giveButton(page).click();
    await expectOneCharge(page, stack.sandbox, lastName);
  });
});
