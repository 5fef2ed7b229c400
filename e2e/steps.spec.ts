// A donor on a phone gives in steps (amount, you, card) as autofill fills fields, goes Back from
// the card and forward again with nothing lost, and is charged once; the fields the page turns on
// are what reaches the fundraising service (the sandbox's report).
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  CARD,
  cardOf,
  cumulativeLayoutShift,
  donateOf,
  fillCardAtOnce,
  MAX_CLS,
  uniqueLastName,
} from "./donor-helpers";
import { consentsOf, sha256, uniqueMobile } from "./optin-helpers";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** The step shown: its heading, the one not hidden. */
const stepHeading = (donate: Locator) => donate.getByRole("heading", { level: 3 });

/** The form's height on screen, in CSS pixels. */
const formHeight = async (donate: Locator) =>
  Math.round((await donate.getByRole("form").boundingBox())!.height);

async function rowsOf(
  sandbox: { transactions: (f?: { keyword?: string }) => Promise<Record<string, unknown>[]> },
  lastName: string,
) {
  return (await sandbox.transactions({ keyword: "HOPE" })).filter((row) => row.last_name === lastName);
}

async function openSteps(page: Page, hostUrl: string, fields = "", viewport = PHONE) {
  await page.setViewportSize(viewport);
  await page.goto(`${hostUrl}/steps.html${fields ? `?fields=${fields}` : ""}`);
  const donate = donateOf(page);
  await expect(stepHeading(donate)).toHaveText("Step 1 of 3: Your gift");
  return donate;
}

/** Whether `target`, in a shadow root, has the focus there (an iframe: focus is inside it). */
const hasFocus = (target: Locator) =>
  target
    .evaluate((element) => (element.getRootNode() as ShadowRoot).activeElement === element)
    .catch(() => false);

/**
 * Tab as a donor presses it: `tabTo` presses until `target` has the focus (not at all if it has
 * it already), `tab` once; `presses.count` counts every press.
 */
function tabber(page: Page) {
  const presses = { count: 0 };
  const tabTo = async (target: Locator) => {
    for (let i = 0; i < 40 && !(await hasFocus(target)); i++) {
      presses.count++;
      await page.keyboard.press("Tab");
    }
    if (!(await hasFocus(target))) throw new Error("Tab never reached it");
  };
  const tab = async () => {
    presses.count++;
    await page.keyboard.press("Tab");
  };
  return { presses, tabTo, tab };
}

test.describe("<givekit-donate> in steps (on a 390 × 844 phone unless named)", () => {
  test("the SMS box is an opt-in: ticked, the proxy keeps the disclosure shown, word for word; unticked, nothing", async ({
    page,
    sandbox,
    hostUrl,
    proxyServer,
  }) => {
    for (const ticked of [true, false]) {
      const lastName = uniqueLastName(ticked ? "SmsYes" : "SmsNo");
      const mobile = uniqueMobile();
      const donate = await openSteps(page, hostUrl, "sms");
      await donate.getByRole("button", { name: "Next" }).click();
      await donate.getByLabel("First name").fill("Noor");
      await donate.getByLabel("Last name").fill(lastName);
      await donate.getByLabel("E-mail").fill("noor@example.org");
      await donate.getByLabel(/^Phone/).fill(mobile);
      const box = donate.getByRole("checkbox", { name: "Text me updates from Hope Shelter Alerts" });
      await expect(box).not.toBeChecked();
      if (ticked) await box.check();
      const shown = (await donate.locator("[part=disclosure]").textContent())!.replace(/\s+/g, " ").trim();
      await donate.getByRole("button", { name: "Next" }).click();
      await fillCardAtOnce(cardOf(page));
      await donate.getByRole("button", { name: /^Donate / }).click();
      await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
      expect(await rowsOf(sandbox, lastName)).toHaveLength(1);
      if (ticked) {
        await expect.poll(() => consentsOf(proxyServer.dataDir, mobile)).toHaveLength(1);
        const [record] = consentsOf(proxyServer.dataDir, mobile);
        // The text itself is kept once, by its hash: the record's hash is the shown text's.
        expect(record).toMatchObject({
          consent_text_sha256: sha256(shown),
          shortcode: "71777",
          keyword: "HOPE",
        });
        expect(shown).toContain("recurring automated text messages from Hope Shelter Alerts");
      } else {
        // The donation went through; no consent was given, so none is kept.
        expect(consentsOf(proxyServer.dataDir, mobile)).toEqual([]);
      }
    }
  });

  for (const viewport of [PHONE, DESKTOP])
    test(`gives in three steps; Back from the card and forward again keeps every value and charges once (${viewport.width} × ${viewport.height})`, async ({
      page,
      sandbox,
      hostUrl,
    }) => {
      const lastName = uniqueLastName("Steps");
      const donate = await openSteps(page, hostUrl, "phone,address", viewport);
      const heights: number[] = [];

      // 1. The gift.
      await donate.getByRole("radio", { name: "$50" }).check();
      await donate.getByRole("checkbox", { name: "Add $1.50 to cover the processing fee" }).check();
      heights.push(await formHeight(donate));
      await donate.getByRole("button", { name: "Next" }).click();

      // 2. The donor: the first field takes the focus; each field filled at once, as autofill does.
      await expect(stepHeading(donate)).toHaveText("Step 2 of 3: About you");
      await expect(donate.getByLabel("First name")).toBeFocused();
      await donate.getByLabel("First name").fill("Maya");
      await donate.getByLabel("Last name").fill(lastName);
      await donate.getByLabel("E-mail").fill("maya@example.org");
      await donate.getByLabel("Phone (optional)").fill("(555) 010-1234");
      await donate.getByLabel("Street address (optional)").fill("12 Commons Lane");
      await donate.getByLabel("City (optional)").fill("Springfield");
      await donate.getByLabel("State or province (optional)").fill("IL");
      await donate.getByLabel("ZIP code (optional)").fill("62701");
      heights.push(await formHeight(donate));
      // Enter in a field moves on, as Next does.
      await donate.getByLabel("ZIP code (optional)").press("Enter");

      // 3. The card, in the frame that was loaded all along: its first field has the focus.
      await expect(stepHeading(donate)).toHaveText("Step 3 of 3: Payment");
      const card = cardOf(page);
      await expect(card.getByLabel("Card number")).toBeFocused();
      await fillCardAtOnce(card);
      heights.push(await formHeight(donate));
      await expect(donate.getByRole("button", { name: "Donate $51.50" })).toBeVisible();

      // Back twice, and every value is still there…
      await donate.getByRole("button", { name: "Back" }).click();
      await expect(stepHeading(donate)).toHaveText("Step 2 of 3: About you");
      await expect(stepHeading(donate)).toBeFocused();
      await expect(donate.getByLabel("Last name")).toHaveValue(lastName);
      await expect(donate.getByLabel("Street address (optional)")).toHaveValue("12 Commons Lane");
      await expect(donate.getByLabel("ZIP code (optional)")).toHaveValue("62701");
      await donate.getByRole("button", { name: "Back" }).click();
      await expect(stepHeading(donate)).toHaveText("Step 1 of 3: Your gift");
      await expect(donate.getByRole("radio", { name: "$50" })).toBeChecked();
      await expect(donate.getByRole("checkbox", { name: /Add \$1\.50/ })).toBeChecked();

      // …and forward again: the card too, never entered twice.
      await donate.getByRole("button", { name: "Next" }).click();
      await expect(stepHeading(donate)).toHaveText("Step 2 of 3: About you");
      await donate.getByRole("button", { name: "Next" }).click();
      await expect(stepHeading(donate)).toHaveText("Step 3 of 3: Payment");
      await expect(card.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
      await expect(card.getByLabel("Security code")).toHaveValue(CARD.cvv);

      await donate.getByRole("button", { name: "Donate $51.50" }).dblclick();
      await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
      const mine = await rowsOf(sandbox, lastName);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        status: "collected",
        amount: "51.50",
        donation_amount: "50.00",
        fee_amount: "1.50",
        last_4: "4242",
        phone: "5550101234",
        street_address: "12 Commons Lane",
        city: "Springfield",
        state: "IL",
        zip: "62701",
        country: "US",
      });
      // Each step is one phone screen or less (the figures: widget/README.md).
      test.info().annotations.push({ type: "form height per step (px)", description: heights.join(", ") });
      for (const height of heights) expect(height).toBeLessThanOrEqual(PHONE.height);
    });

  test("an empty required field stops the donor at its step, the error beside it and the focus on it", async ({
    page,
    hostUrl,
  }) => {
    const donate = await openSteps(page, hostUrl, "phone:required");
    await donate.getByRole("button", { name: "Next" }).click();
    await donate.getByLabel("First name").fill("Maya");
    await donate.getByLabel("Last name").fill("Ruiz");
    await donate.getByLabel("E-mail").fill("maya@example.org");
    await donate.getByRole("button", { name: "Next" }).click();
    const phone = donate.getByLabel("Phone", { exact: true });
    await expect(phone).toBeFocused();
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    await expect(phone).toHaveAccessibleDescription("Fill in this field.");
    await expect(stepHeading(donate)).toHaveText("Step 2 of 3: About you");
  });

  test("with no fields turned on, only name, e-mail and card are asked, and no address reaches the service", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Plain");
    const donate = await openSteps(page, hostUrl);
    await donate.getByRole("button", { name: "Next" }).click();
    await expect(stepHeading(donate)).toHaveText("Step 2 of 3: About you");
    await expect(donate.getByLabel(/^(Phone|Street address|City|ZIP code|Country)/)).toHaveCount(0);
    await expect(donate.getByRole("checkbox")).toHaveCount(0);
    await donate.getByLabel("First name").fill("Maya");
    await donate.getByLabel("Last name").fill(lastName);
    await donate.getByLabel("E-mail").fill("maya@example.org");
    await donate.getByRole("button", { name: "Next" }).click();
    await fillCardAtOnce(cardOf(page));
    await donate.getByRole("button", { name: "Donate $25.00" }).click();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    const mine = await rowsOf(sandbox, lastName);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      amount: "25.00",
      phone: null,
      street_address: null,
      city: null,
      zip: null,
      country: null,
      pledge_wall: false,
      sms_opt_in_accepted: false,
    });
  });

  test("with the keyboard alone: Tab from the page to Donate, and Enter through the steps", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Tabs");
    const donate = await openSteps(page, hostUrl, "phone,address");
    const { tabTo, tab } = tabber(page);
    await tabTo(donate.getByRole("button", { name: "Next" }));
    await page.keyboard.press("Enter");
    // Going on, the step's first field has the focus.
    await expect(stepHeading(donate)).toHaveText("Step 2 of 3: About you");
    await expect(donate.getByLabel("First name")).toBeFocused();
    await page.keyboard.type("Ada");
    await tabTo(donate.getByLabel("Last name"));
    await page.keyboard.type(lastName);
    await tabTo(donate.getByLabel("E-mail"));
    await page.keyboard.type("ada@example.org");
    await page.keyboard.press("Enter");
    await expect(stepHeading(donate)).toHaveText("Step 3 of 3: Payment");
    await expect(cardOf(page).getByLabel("Card number")).toBeFocused();
    await page.keyboard.type(CARD.number);
    await tab();
    await page.keyboard.type(CARD.expiry);
    await tab();
    await page.keyboard.type(CARD.cvv);
    await tabTo(donate.getByRole("button", { name: "Donate $25.00" }));
    await page.keyboard.press("Enter");
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    expect(await rowsOf(sandbox, lastName)).toHaveLength(1);
  });

  test("with the default fields (name, e-mail, card), at most 10 Tab presses from the page to Donate in all steps", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("TabCount");
    const donate = await openSteps(page, hostUrl);
    const { presses, tabTo, tab } = tabber(page);
    // Step 1: the frequency, the amount, the fee, the fundraiser, Next.
    await tabTo(donate.getByRole("button", { name: "Next" }));
    await page.keyboard.press("Enter");
    await expect(donate.getByLabel("First name")).toBeFocused();
    await page.keyboard.type("Ada");
    await tab();
    await page.keyboard.type(lastName);
    await tab();
    await expect(donate.getByLabel("E-mail")).toBeFocused();
    await page.keyboard.type("ada@example.org");
    await page.keyboard.press("Enter");
    await expect(cardOf(page).getByLabel("Card number")).toBeFocused();
    await page.keyboard.type(CARD.number);
    await tab();
    await page.keyboard.type(CARD.expiry);
    await tab();
    await page.keyboard.type(CARD.cvv);
    // Donate comes before Back.
    await tab();
    await expect(donate.getByRole("button", { name: "Donate $25.00" })).toBeFocused();
    test
      .info()
      .annotations.push({ type: "Tab presses from the page to Donate", description: String(presses.count) });
    expect(presses.count).toBeLessThanOrEqual(10);
    await page.keyboard.press("Enter");
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    expect(await rowsOf(sandbox, lastName)).toHaveLength(1);
  });

  test("a Spanish form on an English page is marked Spanish, the card frame too, and the card's fields line up with the others", async ({
    page,
    hostUrl,
  }) => {
    await page.goto(`${hostUrl}/steps.html?locale=es&layout=single`);
    const donate = donateOf(page);
    const firstName = donate.getByLabel("Nombre", { exact: true });
    await expect(firstName).toBeVisible();
    // Screen readers read the form in a Spanish voice: its language is on the form, not only the page's.
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    expect(await firstName.evaluate((input) => input.closest("[lang]")?.getAttribute("lang"))).toBe("es");
    expect(await cardOf(page).locator("html").getAttribute("lang")).toBe("es");
    const name = (await firstName.boundingBox())!;
    for (const label of ["Número de tarjeta", "Fecha de vencimiento"]) {
      const box = (await cardOf(page).getByLabel(label).boundingBox())!;
      expect(Math.round(box.x), `${label}'s left edge`).toBe(Math.round(name.x));
    }
    // The card number spans the form as the e-mail does.
    const email = (await donate.getByLabel("Correo electrónico").boundingBox())!;
    const number = (await cardOf(page).getByLabel("Número de tarjeta").boundingBox())!;
    expect(Math.round(number.x + number.width)).toBe(Math.round(email.x + email.width));
  });

  for (const viewport of [PHONE, { width: 1280, height: 1600 }]) {
    test(`the page hardly moves from navigation until the first step is ready (${viewport.width} px wide)`, async ({
      page,
      hostUrl,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${hostUrl}/steps-path.html`);
      const donate = donateOf(page);
      await expect(stepHeading(donate)).toHaveText("Step 1 of 3: Your gift");
      // The card frame, hidden until the last step, has loaded meanwhile.
      await expect(cardOf(page).getByLabel("Card number")).toBeAttached();
      const shift = await cumulativeLayoutShift(page);
      const height = Math.round((await donate.boundingBox())!.height);
      test
        .info()
        .annotations.push({ type: "CLS", description: `${shift.toFixed(4)} (element ${height} px)` });
      expect(shift).toBeLessThanOrEqual(MAX_CLS);
    });
  }
});
