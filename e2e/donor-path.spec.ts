/**
 * The donor's path as donors take it: a card entered the way browser autofill and password
 * managers enter it, a real press and release of the mouse on the button, Enter in a card
 * field; and a page that does not move while the form loads. Money is checked in the
 * sandbox's own report: exactly one charge for each gift, shown to the donor as a thank-you.
 */
import {
  CARD,
  TOTAL,
  cardOf,
  chooseAndFillDonor,
  cumulativeLayoutShift,
  donateOf,
  expectOneCharge,
  fillCardAtOnce,
  MAX_CLS,
  openGivingPage,
  pressAndRelease,
  uniqueLastName,
} from "./donor-helpers";
import { expect, test } from "./fixtures";
import { FUTURE_EXPIRY_TYPED } from "../test/helpers/cards";

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
      ["Expiry date", FUTURE_EXPIRY_TYPED],
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
