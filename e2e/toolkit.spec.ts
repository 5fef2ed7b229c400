/**
 * The fundraiser's toolkit in Chromium, against the proxy and the sandbox: a prefilled monthly
 * link, a dedication, the monthly invitation, the dataLayer purchase, and the landing page's UTM
 * tags in `givekit attempts`. Money is checked in the sandbox's own report.
 */
import { readDedication } from "../contract/dedication";
import { givekit } from "../test/helpers/cli";
import { DEMO, type SandboxHandle } from "../test/helpers/sandbox";
import {
  CARD,
  cardOf,
  donateOf,
  fillCardAtOnce,
  HOPE_CONTEXT,
  reachDonate,
  showStep,
  uniqueLastName,
} from "./donor-helpers";
import { expect, test } from "./fixtures";
import type { Locator, Page } from "@playwright/test";

/** Name and e-mail as autofill enters them, on the About you step. */
async function fillDonor(donate: Locator, lastName: string) {
  await showStep(donate, "About you");
  await donate.getByLabel("First name").fill("Noor");
  await donate.getByLabel("Last name").fill(lastName);
  await donate.getByLabel("E-mail", { exact: true }).fill("noor@example.org");
}

/** The card, and Donate (named `button`), and the thanks. */
async function giveWithCard(page: Page, button: string, card = CARD.number) {
  const donate = donateOf(page);
  const donateButton = await reachDonate(donate, button);
  const frame = cardOf(page);
  await fillCardAtOnce(frame);
  if (card !== CARD.number) await frame.getByLabel("Card number").fill(card);
  await donateButton.click();
}

/** The sandbox's rows of the donor named `lastName`: each test's own. */
const rowsOf = async (sandbox: SandboxHandle, lastName: string) =>
  (await sandbox.transactions({ keyword: "HOPE" })).filter((row) => row.last_name === lastName);

const dataLayerOf = (page: Page) =>
  page.evaluate(() => ((window as { dataLayer?: unknown[] }).dataLayer ?? []) as Record<string, unknown>[]);

test.describe("the fundraiser's toolkit, on a 390 × 844 phone", () => {
  // Where a fundraiser's links are opened: from an e-mail, on a phone.
  test.use({ viewport: { width: 390, height: 844 } });

  test("a prefilled monthly $100 link gives $100 monthly; its UTM tags reach givekit attempts, not the service", async ({
    page,
    hostUrl,
    sandbox,
    proxyServer,
  }) => {
    const lastName = uniqueLastName("Link");
    await page.goto(
      `${hostUrl}/toolkit.html?amount=100&frequency=monthly&utm_source=newsletter&utm_campaign=winter26`,
    );
    const donate = donateOf(page);
    await expect(donate.getByRole("radio", { name: "Monthly" })).toBeChecked();
    await expect(donate.getByLabel("Other amount")).toHaveValue("100.00");
    await fillDonor(donate, lastName);
    await giveWithCard(page, "Donate $100.00 monthly");
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });

    const mine = await rowsOf(sandbox, lastName);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: "collected", amount: "100.00", recurring_frequency: "monthly" });
    expect(JSON.stringify(mine[0])).not.toContain("newsletter");

    const { code, out, err } = await givekit(["attempts", "--json"], {
      UPSTREAM_BASE_URL: sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: proxyServer.dataDir,
    });
    expect({ code, err, out: code === 0 ? "" : out }).toEqual({ code: 0, err: "", out: "" });
    // JSON lines: one attempt a line.
    const attempts = out
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { transaction_id: string; utm: string | null });
    const attempt = attempts.find((row) => row.transaction_id === mine[0]!.transaction_id);
    expect(JSON.parse(attempt!.utm!)).toEqual({ utm_source: "newsletter", utm_campaign: "winter26" });
  });

  test("a dedication arrives in the sandbox's memo, after the donor's message, and the thanks repeats it", async ({
    page,
    hostUrl,
    sandbox,
  }) => {
    const lastName = uniqueLastName("Dedic");
    await page.goto(`${hostUrl}/toolkit.html`);
    const donate = donateOf(page);
    await donate.getByRole("radio", { name: "$50" }).check();
    await fillDonor(donate, lastName);
    await donate.getByLabel(/^Message/).fill("For the winter beds");
    await donate.getByRole("checkbox", { name: "Dedicate my gift to someone" }).check();
    await donate.getByRole("radio", { name: "In memory of" }).check();
    await donate.getByLabel("Their name").fill("Jane Doe");
    await donate.getByLabel(/E-mail someone about my gift/).fill("jane@example.org");
    await giveWithCard(page, "Donate $50.00");
    await expect(donate.getByText("In memory of Jane Doe.")).toBeVisible({ timeout: 15_000 });

    const mine = await rowsOf(sandbox, lastName);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ amount: "50.00" });
    expect(readDedication(mine[0]!.memo as string)).toEqual({
      message: "For the winter beds",
      dedication: { kind: "memory", name: "Jane Doe", notify_email: "jane@example.org" },
    });
  });

  test("the monthly invitation, accepted with one click, makes the gift monthly at the amount it offered", async ({
    page,
    hostUrl,
    sandbox,
  }) => {
    const lastName = uniqueLastName("Prompt");
    await page.goto(`${hostUrl}/toolkit.html`);
    const donate = donateOf(page);
    await donate.getByRole("radio", { name: "$100" }).check();
    const invitation = donate.getByRole("group", { name: "Make it $34 a month instead?" });
    await invitation.getByRole("button", { name: "Yes, $34 monthly" }).click();
    await expect(invitation).toHaveCount(0);
    await expect(donate.getByRole("radio", { name: "Monthly" })).toBeChecked();
    await fillDonor(donate, lastName);
    await giveWithCard(page, "Donate $34.00 monthly");
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    const mine = await rowsOf(sandbox, lastName);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ amount: "34.00", recurring_frequency: "monthly" });
  });

  test("data-layer: one GA4 purchase per charge with its figures, none for a decline", async ({
    page,
    hostUrl,
    sandbox,
  }) => {
    const lastName = uniqueLastName("Layer");
    await page.goto(`${hostUrl}/toolkit.html?utm_medium=email`);
    const donate = donateOf(page);
    await donate.getByRole("radio", { name: "$25 A week of meals" }).check();
    await fillDonor(donate, lastName);
    // A declined card first: nothing charged, nothing pushed.
    await giveWithCard(page, "Donate $25.00", "4000000000000002");
    await expect(donate.getByRole("alert")).toContainText("declined");
    expect((await dataLayerOf(page)).filter((entry) => entry.event === "purchase")).toHaveLength(0);
    await cardOf(page).getByLabel("Card number").fill(CARD.number);
    await donate.getByRole("button", { name: "Donate $25.00" }).click();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });

    const [charged] = (await rowsOf(sandbox, lastName)).filter((row) => row.status === "collected");
    const purchases = (await dataLayerOf(page)).filter((entry) => entry.event === "purchase");
    expect(purchases).toEqual([
      {
        event: "purchase",
        ecommerce: {
          transaction_id: charged!.transaction_id,
          value: 25,
          currency: "USD",
          items: [
            {
              item_id: "71777/HOPE",
              item_name: "71777/HOPE",
              item_category: "once",
              price: 25,
              quantity: 1,
            },
          ],
        },
      },
    ]);
    const told = await page.evaluate(() =>
      (
        window as unknown as { givekitEvents: { type: string; detail: Record<string, unknown> }[] }
      ).givekitEvents.filter((event) => event.type === "givekit:donation"),
    );
    expect(told.map((event) => event.detail)).toEqual([
      {
        ...HOPE_CONTEXT,
        utm_medium: "email",
        status: "Success",
        amount: "25.00",
        frequency: "once",
        transaction_id: charged!.transaction_id,
      },
    ]);
  });
});
