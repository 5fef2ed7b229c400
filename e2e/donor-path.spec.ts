/**
 * The donor's path as donors take it: a card entered the way browser autofill and password
 * managers enter it, a real press and release of the mouse on the button, Enter in a card
 * field; and a page that does not move while the form loads. Money is checked in the
 * sandbox's own report: exactly one charge for each gift, shown to the donor as a thank-you.
 */
import type { FrameLocator, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const CARD = { number: "4242424242424242", expiry: "12/2034", cvv: "123" };
/** $50 with the 3 % fee covered: what the button says and what the sandbox must charge. */
const TOTAL = "51.50";
/** How long a person holds the mouse button down on a click (about a tenth of a second). */
const PRESS_MS = 120;
const MAX_CLS = 0.05;

let names = 0;
/** A last name no other test uses, to find this test's rows in the sandbox's report. */
function uniqueLastName(prefix: string): string {
  names += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid}${names}`;
}

const donateOf = (page: Page) => page.locator("givekit-donate");
const cardOf = (page: Page): FrameLocator => donateOf(page).locator("iframe").contentFrame();

async function openGivingPage(page: Page, hostUrl: string) {
  await page.goto(`${hostUrl}/donor-path.html`);
  await expect(cardOf(page).getByLabel("Card number")).toBeVisible();
}

/** $50, the fee covered, and the donor's name and e-mail, as autofill enters them. */
async function chooseAndFillDonor(page: Page, lastName: string) {
  const donate = donateOf(page);
  await donate.getByRole("radio", { name: "$50" }).check();
  await donate.getByRole("checkbox", { name: "Add $1.50 to cover the processing fee" }).check();
  await donate.getByLabel("First name").fill("Maya");
  await donate.getByLabel("Last name").fill(lastName);
  await donate.getByLabel("E-mail").fill("maya@example.org");
}

/** Each card field set at once with one input event, as autofill and password managers do. */
async function fillCardAtOnce(card: FrameLocator) {
  await card.getByLabel("Card number").fill(CARD.number);
  await card.getByLabel("Expiry date").fill(CARD.expiry);
  await card.getByLabel("Security code").fill(CARD.cvv);
}

/**
 * Presses the mouse on the middle of `target`, holds it as a person does, and releases it
 * there. The click lands only if nothing moved the button in between: its box at the press
 * and at the release are returned for the test to compare.
 */
async function pressAndRelease(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const pressed = (await target.boundingBox())!;
  await page.mouse.move(pressed.x + pressed.width / 2, pressed.y + pressed.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(PRESS_MS);
  const released = await target.boundingBox();
  await page.mouse.up();
  return { pressed, released };
}

async function expectOneCharge(
  page: Page,
  sandbox: { transactions: (filter?: { keyword?: string }) => Promise<Record<string, unknown>[]> },
  lastName: string,
) {
  const donate = donateOf(page);
  await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
  await expect(donate.getByText(`Your donation of $${TOTAL} went through.`)).toBeVisible();
  const mine = (await sandbox.transactions({ keyword: "HOPE" })).filter((row) => row.last_name === lastName);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({
    status: "collected",
    amount: TOTAL,
    donation_amount: "50.00",
    fee_amount: "1.50",
    last_4: "4242",
  });
}

/** The layout shift score of the page so far: every shift not caused by the donor's input. */
function cumulativeLayoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        });
        // Buffered: every shift since navigation, delivered in the observer's first call.
        observer.observe({ type: "layout-shift", buffered: true });
        setTimeout(() => {
          observer.disconnect();
          resolve(total);
        }, 100);
      }),
  );
}

test.describe("the donor's path on a page of another origin", () => {
  test("a card filled at once in each field gives with a real mouse click, once", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Autofill");
    await openGivingPage(page, hostUrl);
    await chooseAndFillDonor(page, lastName);
    await fillCardAtOnce(cardOf(page));
    // The press takes focus from the card field it was in: the button must stay where it was.
    const { pressed, released } = await pressAndRelease(
      page,
      donateOf(page).getByRole("button", { name: `Donate $${TOTAL}` }),
    );
    expect(released).toEqual(pressed);
    await expectOneCharge(page, sandbox, lastName);
  });

  test("a card filled at once gives with Enter in the security code, once", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Enter");
    await openGivingPage(page, hostUrl);
    await chooseAndFillDonor(page, lastName);
    const card = cardOf(page);
    await fillCardAtOnce(card);
    await card.getByLabel("Security code").press("Enter");
    await expectOneCharge(page, sandbox, lastName);
  });

  test("a password manager's fill (the value set, `change` alone, no focus) gives with a click, once", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Manager");
    await openGivingPage(page, hostUrl);
    await chooseAndFillDonor(page, lastName);
    const card = cardOf(page);
    for (const [label, value] of [
      ["Card number", CARD.number],
      ["Expiry date", "12/34"],
      ["Security code", CARD.cvv],
    ] as const) {
      await card.getByLabel(label).evaluate((input: HTMLInputElement, filled) => {
        input.value = filled;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }, value);
    }
    await expect(card.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
    const { pressed, released } = await pressAndRelease(
      page,
      donateOf(page).getByRole("button", { name: `Donate $${TOTAL}` }),
    );
    expect(released).toEqual(pressed);
    await expectOneCharge(page, sandbox, lastName);
  });

  test("a card typed key by key, with a mistake put right, gives with a click after the frame has resized", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Typed");
    await openGivingPage(page, hostUrl);
    await chooseAndFillDonor(page, lastName);
    const card = cardOf(page);
    const frame = donateOf(page).locator("iframe");
    // The frame has said how tall it is (the page set its height from the frame's message).
    await expect(frame).toHaveAttribute("style", /height: \d+px/);
    const reserved = (await frame.boundingBox())!.height;

    await card.getByLabel("Card number").pressSequentially(CARD.number);
    await card.getByLabel("Expiry date").pressSequentially("01/2020");
    await card.getByLabel("Security code").click();
    await expect(card.getByText("The card has expired.")).toBeVisible();
    // The error took the line kept for it: the frame, and so the button, did not move.
    expect((await frame.boundingBox())!.height).toBe(reserved);
    await card.getByLabel("Expiry date").fill("");
    await card.getByLabel("Expiry date").pressSequentially(CARD.expiry);
    await card.getByLabel("Security code").pressSequentially(CARD.cvv);
    await expect(card.getByText("The card has expired.")).toBeHidden();
    await expect(card.getByText("Visa")).toBeVisible();

    const { pressed, released } = await pressAndRelease(
      page,
      donateOf(page).getByRole("button", { name: `Donate $${TOTAL}` }),
    );
    expect(released).toEqual(pressed);
    await expectOneCharge(page, sandbox, lastName);
  });

  for (const viewport of [
    { width: 1280, height: 1600 },
    { width: 390, height: 844 },
  ]) {
    test(`the page hardly moves from navigation until the form is ready (${viewport.width} px wide)`, async ({
      page,
      hostUrl,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${hostUrl}/donor-path.html`);
      await expect(cardOf(page).getByLabel("Card number")).toBeVisible();
      // Ready for the donor: the card frame has reported its height and the page applied it.
      await expect(donateOf(page).locator("iframe")).toHaveAttribute("style", /height: \d+px/);
      const shift = await cumulativeLayoutShift(page);
      test.info().annotations.push({ type: "CLS", description: shift.toFixed(4) });
      expect(shift).toBeLessThanOrEqual(MAX_CLS);
    });
  }
});
