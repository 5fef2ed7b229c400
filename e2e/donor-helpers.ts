/**
 * The donor's path, shared by the specs that walk it: a gift of $50 with the fee covered, a
 * card entered as autofill enters it, a press and release of the mouse as a person makes it,
 * and the one charge the sandbox's own report must show for it.
 */
import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

export const CARD = { number: "4242424242424242", expiry: FUTURE_EXPIRY, cvv: "123" };
/** $50 with the 3 % fee covered: what the button says and what the sandbox must charge. */
export const TOTAL = "51.50";
/** How long a person holds the mouse button down on a click (about a tenth of a second). */
const PRESS_MS = 120;

let names = 0;
/** A last name no other test uses, to find this test's rows in the sandbox's report. */
export function uniqueLastName(prefix: string): string {
  names += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid}${names}`;
}

export const donateOf = (page: Page) => page.locator("givekit-donate");
export const cardOf = (page: Page): FrameLocator => donateOf(page).locator("iframe").contentFrame();

export async function openGivingPage(page: Page, hostUrl: string) {
  await page.goto(`${hostUrl}/donor-path.html`);
  await expect(cardOf(page).getByLabel("Card number")).toBeVisible();
}

/** The steps of a form in steps (layout="steps"), by the end of their headings ("Step 1 of 3: Your gift"). */
export const STEP_TITLES = ["Your gift", "About you", "Payment"] as const;
export type StepTitle = (typeof STEP_TITLES)[number];

/**
 * In steps, shows the step `title`, pressing Next (or Back) as a donor does; on one page
 * (layout="single"), where every field is shown at once, it does nothing.
 */
export async function showStep(donate: Locator, title: StepTitle) {
  await expect(donate.getByRole("button", { name: /^(Next|Donate)\b/ })).toBeVisible();
  // The step shown is the only step heading not hidden.
  const shown = donate.getByRole("heading", { level: 3, name: /^Step \d of 3: / });
  for (let moves = 0; moves < STEP_TITLES.length; moves++) {
    if ((await shown.count()) === 0) return;
    const text = (await shown.textContent()) ?? "";
    const at = STEP_TITLES.findIndex((step) => text.endsWith(step));
    const to = STEP_TITLES.indexOf(title);
    if (at === to) return;
    await donate.getByRole("button", { name: to > at ? "Next" : "Back" }).click();
    await expect(shown).not.toHaveText(text);
  }
  throw new Error(`The form never showed the step "${title}".`);
}

/** The Donate button (`name`), on the card step in steps: after Next through the steps before it. */
export async function reachDonate(donate: Locator, name: string | RegExp = /^Donate /) {
  await showStep(donate, "Payment");
  return donate.getByRole("button", { name });
}

/** $50, the fee covered, and the donor's name and e-mail, as autofill enters them. */
export async function chooseAndFillDonor(page: Page, lastName: string) {
  const donate = donateOf(page);
  await donate.getByRole("radio", { name: "$50" }).check();
  await donate.getByRole("checkbox", { name: "Add $1.50 to cover the processing fee" }).check();
  await showStep(donate, "About you");
  await donate.getByLabel("First name").fill("Maya");
  await donate.getByLabel("Last name").fill(lastName);
  await donate.getByLabel("E-mail").fill("maya@example.org");
}

/** Each card field set at once with one input event, as autofill and password managers do. */
export async function fillCardAtOnce(card: FrameLocator) {
  await card.getByLabel("Card number").fill(CARD.number);
  await card.getByLabel("Expiry date").fill(CARD.expiry);
  await card.getByLabel("Security code").fill(CARD.cvv);
}

/**
 * Presses the mouse on the middle of `target`, holds it as a person does, and releases it
 * there. The click lands only if nothing moved the button in between: its box at the press
 * and at the release are returned for the test to compare.
 */
export async function pressAndRelease(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const pressed = (await target.boundingBox())!;
  await page.mouse.move(pressed.x + pressed.width / 2, pressed.y + pressed.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(PRESS_MS);
  const released = await target.boundingBox();
  await page.mouse.up();
  return { pressed, released };
}

export async function expectOneCharge(
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

/** What every donate event of a form giving to HOPE carries besides its own facts (widget/donate/analytics.ts). */
export const HOPE_CONTEXT = { currency: "USD", shortcode: "71777", keyword: "HOPE" } as const;

/** The most a page may move while the form loads (web.dev: "good" is 0.1 or less). */
export const MAX_CLS = 0.05;

/** The layout shift score of the page so far: every shift not caused by the donor's input. */
export function cumulativeLayoutShift(page: Page): Promise<number> {
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
