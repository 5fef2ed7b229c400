/**
 * A donation whose answer never came, in Chromium: the widget shows Pending and, without a
 * reload, learns the truth the proxy's reconciler found in the sandbox's transactions report.
 * 777.77 is charged and never answered (→ the thanks, with the report's transaction id); 999.99
 * is never answered and never charged (→ "nothing was charged", the form usable again).
 * A proxy of its own, reconciling every second with a settle window of 4 s.
 */
import { test as base, type Page } from "@playwright/test";
import {
  cardOf,
  donateOf,
  fillCardAtOnce,
  openGivingPage,
  uniqueLastName,
  HOPE_CONTEXT,
} from "./donor-helpers";
import { expect, withServers, type Servers } from "./fixtures";

const PENDING_TITLE = "We could not confirm your donation";
const CHECKING = "We are checking with the payment service; this page will update by itself.";
const NOT_CHARGED = "Your donation did not go through, so nothing was charged. You can try again.";
/** The reconciler's settle window: a 999.99 turns NotCharged this long after it was sent. */
const SETTLE_S = 4;

const test = base.extend<{}, { stack: Servers }>({
  stack: [
    // oxlint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use) =>
      withServers(
        {
          // The never-answering amounts end as Pending after this long.
          UPSTREAM_TIMEOUT_MS: "1500",
          GIVEKIT_RECONCILE_INTERVAL_S: "1",
          GIVEKIT_RECONCILE_SETTLE_S: String(SETTLE_S),
          GIVEKIT_RATE_PAYMENT_TOKENS: "1000",
          GIVEKIT_RATE_DONATIONS: "1000",
        },
        use,
      ),
    { scope: "worker" },
  ],
});

// Pending, then the lookups' back-off (2 s, 4 s, …) and a settle window: more than the default 30 s on a busy machine.
test.setTimeout(60_000);

type Detail = { status: string; amount: string; frequency: string; transaction_id: string | null };

async function donationEvents(page: Page): Promise<Detail[]> {
  return page.evaluate(() =>
    (window as unknown as { givekitEvents: { type: string; detail: Detail }[] }).givekitEvents
      .filter((event) => event.type === "givekit:donation")
      .map((event) => event.detail),
  );
}

/** Gives `amount` as an "other" amount, as a donor types it, with a card entered as autofill enters it. */
async function give(page: Page, amount: string, lastName: string) {
  const donate = donateOf(page);
  await donate.getByRole("radio", { name: "Other" }).check();
  await donate.getByLabel("Other amount").fill(amount);
  await donate.getByLabel("First name").fill("Maya");
  await donate.getByLabel("Last name").fill(lastName);
  await donate.getByLabel("E-mail").fill("maya@example.org");
  await fillCardAtOnce(cardOf(page));
  await donate.getByRole("button", { name: `Donate $${amount}` }).click();
}

/** Pending on screen with its reference; a mark on the window that a reload would wipe. */
async function seePending(page: Page): Promise<string> {
  const donate = donateOf(page);
  await expect(donate.getByRole("heading", { name: PENDING_TITLE })).toBeVisible({ timeout: 15_000 });
  await expect(donate.getByText(CHECKING)).toBeVisible();
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  return (await donate.locator(".gk-reference").textContent())!;
}

const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

test.describe("a Pending donation, resolved without a reload", () => {
  test("777.77 (charged, answer lost): Pending, then the thanks with the report's transaction id", async ({
    page,
    stack,
  }) => {
    const lastName = uniqueLastName("Unanswered");
    await openGivingPage(page, stack.host.url);
    await give(page, "777.77", lastName);
    const reference = await seePending(page);
    expect(reference).toMatch(/^gk_[0-9a-f]{20}$/);

    const donate = donateOf(page);
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 30_000 });
    await expect(donate.getByText("Your donation of $777.77 went through.")).toBeVisible();
    // The sandbox's own report: one charge, tagged with this donation's reference.
    const mine = (await stack.sandbox.transactions({ keyword: "HOPE" })).filter(
      (row) => row.last_name === lastName,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: "collected", amount: "777.77", last_4: "4242" });
    expect(String(mine[0]!.source)).toBe(`api_via_givekit.${reference}`);
    const transactionId = String(mine[0]!.transaction_id);
    await expect(donate.locator(".gk-reference")).toHaveText(transactionId);
    expect(await notReloaded(page)).toBe(true);
    expect(await donationEvents(page)).toEqual([
      { ...HOPE_CONTEXT, status: "Pending", amount: "777.77", frequency: "once", transaction_id: null },
      {
        ...HOPE_CONTEXT,
        status: "Success",
        amount: "777.77",
        frequency: "once",
        transaction_id: transactionId,
      },
    ]);
  });

  test("999.99 (answer lost, nothing charged): Pending, then 'nothing was charged' and the form usable again", async ({
    page,
    stack,
  }) => {
    const lastName = uniqueLastName("Uncharged");
    await openGivingPage(page, stack.host.url);
    const sent = Date.now();
    await give(page, "999.99", lastName);
    await seePending(page);

    const donate = donateOf(page);
    await expect(donate.getByRole("alert")).toHaveText(NOT_CHARGED, { timeout: 30_000 });
    // Not before the settle window: the report could still have shown the charge until then.
    expect(Date.now() - sent).toBeGreaterThanOrEqual(SETTLE_S * 1000);
    expect(await notReloaded(page)).toBe(true);
    await expect(donate.getByLabel("Last name")).toHaveValue(lastName);
    await expect(donate.getByLabel("Other amount")).toHaveValue("999.99");
    expect((await stack.sandbox.transactions()).filter((row) => row.last_name === lastName)).toEqual([]);

    // The form works again: a new card entry, another amount, one charge.
    await donate.getByRole("radio", { name: "$25" }).check();
    await fillCardAtOnce(cardOf(page));
    await donate.getByRole("button", { name: "Donate $25.00" }).click();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    const mine = (await stack.sandbox.transactions()).filter((row) => row.last_name === lastName);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: "collected", amount: "25.00" });
    expect(await donationEvents(page)).toEqual([
      { ...HOPE_CONTEXT, status: "Pending", amount: "999.99", frequency: "once", transaction_id: null },
      { ...HOPE_CONTEXT, status: "NotCharged", amount: "999.99", frequency: "once", transaction_id: null },
      {
        ...HOPE_CONTEXT,
        status: "Success",
        amount: "25.00",
        frequency: "once",
        transaction_id: String(mine[0]!.transaction_id),
      },
    ]);
  });
});
