import type { Page, Request } from "@playwright/test";
import { expect, GIVEKIT_SOURCE, test } from "./fixtures";
import { fillCardAtOnce, reachDonate, showStep, HOPE_CONTEXT } from "./donor-helpers";
import { shownMoney, sumCents } from "./optin-helpers";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

/** The sandbox's test cards (sandbox/README.md): always charged, and always declined. */
const GOOD_CARD = "4242424242424242";
const DECLINED_CARD = "4000000000000002";
const EXPIRY = FUTURE_EXPIRY;
const CVV = "123";

let names = 0;
/** A last name no other test uses, to find this test's rows in the sandbox's report. */
function uniqueLastName(prefix: string): string {
  names += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid}${names}`;
}

const donateOf = (page: Page) => page.locator("givekit-donate");
const cardFrameOf = (page: Page) => donateOf(page).locator("iframe").contentFrame();

async function fillDonor(page: Page, lastName: string) {
  const donate = donateOf(page);
  await showStep(donate, "About you");
  await donate.getByLabel("First name").fill("Grace");
  await donate.getByLabel("Last name").fill(lastName);
  await donate.getByLabel("E-mail").fill("grace@example.org");
}

async function typeCard(page: Page, number: string) {
  await showStep(donateOf(page), "Payment");
  const card = cardFrameOf(page);
  await card.getByLabel("Card number").fill("");
  await card.getByLabel("Card number").pressSequentially(number);
  await card.getByLabel("Expiry date").fill("");
  await card.getByLabel("Expiry date").pressSequentially(EXPIRY);
  await card.getByLabel("Security code").fill("");
  await card.getByLabel("Security code").pressSequentially(CVV);
}

/** What these tests ask of the sandbox fixture: its transactions report. */
type Sandbox = { transactions: (f?: { keyword?: string }) => Promise<{ last_name: string | null }[]> };

async function rowsOf(sandbox: Sandbox, lastName: string) {
  return (await sandbox.transactions({ keyword: "HOPE" })).filter((row) => row.last_name === lastName);
}

const DONATE_50 = "Donate $50.00 monthly";

/** The paths of the card tokens and donations the page (and its card frame) posts, as they are sent. */
function recordSent(page: Page): string[] {
  const sent: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === "POST" && ["/v1/payment-tokens", "/v1/donations"].includes(path))
      sent.push(path);
  });
  return sent;
}

test.describe("<givekit-donate> on a page of another origin", () => {
  test("a monthly gift with the fee covered, for a fundraiser chosen in the picker, is charged as shown", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Hopper");
    await page.goto(`${hostUrl}/donate.html`);
    const donate = donateOf(page);

    await expect(donate.getByRole("radio", { name: "Monthly" })).toBeChecked();
    await donate.getByRole("radio", { name: "$25" }).check();
    await donate.getByRole("checkbox", { name: "Add $0.75 to cover the processing fee" }).check();
    await donate.getByRole("combobox", { name: /fundraiser or team/ }).pressSequentially("Ana");
    await donate.getByRole("option", { name: "Ana Ruiz · Team Sunrise" }).click();
    await expect(donate.getByText("Your gift supports Ana Ruiz · Team Sunrise.")).toBeVisible();
    await fillDonor(page, lastName);
    await typeCard(page, GOOD_CARD);
    await expect(cardFrameOf(page).getByText("Visa")).toBeVisible();

    await (await reachDonate(donate, "Donate $25.75 monthly")).click();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    await expect(donate.getByText("Your donation of $25.75 monthly went through.")).toBeVisible();

    const rows = await sandbox.transactions({ keyword: "HOPE" });
    const mine = rows.filter((row) => row.last_name === lastName);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      status: "collected",
      amount: "25.75",
      donation_amount: "25.00",
      fee_amount: "0.75",
      recurring_frequency: "monthly",
      peer_fundraiser_id: "101",
      peer_fundraiser_team_id: "11",
      source: expect.stringMatching(GIVEKIT_SOURCE),
      last_4: "4242",
    });
    await expect(donate.getByText(mine[0]!.transaction_id, { exact: true })).toBeVisible();
    const donations = await page.evaluate(() =>
      (window as unknown as { givekitEvents: { type: string; detail: unknown }[] }).givekitEvents.filter(
        (event) => event.type === "givekit:donation",
      ),
    );
    expect(donations).toEqual([
      {
        type: "givekit:donation",
        detail: {
          ...HOPE_CONTEXT,
          status: "Success",
          amount: "25.75",
          frequency: "monthly",
          transaction_id: mine[0]!.transaction_id,
        },
      },
    ]);
  });

  test("a declined card charges nothing, says so, and stays editable for another card", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Declined");
    await page.goto(`${hostUrl}/donate.html`);
    const donate = donateOf(page);
    await donate.getByRole("radio", { name: "Once" }).check();
    await fillDonor(page, lastName);
    await typeCard(page, DECLINED_CARD);
    await (await reachDonate(donate, "Donate $25.00")).click();

    await expect(donate.getByRole("alert")).toHaveText(/Your card was declined, so nothing was charged/);
    expect(
      (await rowsOf(sandbox, lastName)).filter((row) => (row as { status?: string }).status === "collected"),
    ).toEqual([]);

    await typeCard(page, GOOD_CARD);
    await (await reachDonate(donate, "Donate $25.00")).click();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    const collected = (await sandbox.transactions({ keyword: "HOPE" })).filter(
      (row) => row.last_name === lastName && row.status === "collected",
    );
    expect(collected).toHaveLength(1);
    expect(collected[0]).toMatchObject({ amount: "25.00", last_4: "4242", recurring_frequency: null });
  });

  test("a double-click on the button charges once", async ({ page, sandbox, hostUrl }) => {
    const lastName = uniqueLastName("Twice");
    await page.goto(`${hostUrl}/donate.html`);
    const donate = donateOf(page);
    await donate.getByRole("radio", { name: "$50" }).check();
    await fillDonor(page, lastName);
    await typeCard(page, GOOD_CARD);
    await (await reachDonate(donate, "Donate $50.00 monthly")).dblclick();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    const rows = await rowsOf(sandbox, lastName);
    expect(rows).toHaveLength(1);
  });

  test("a bad e-mail is named before anything leaves the browser (no card token, nothing charged); put right, one charge", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const sent = recordSent(page);
    const lastName = uniqueLastName("Checked");
    await page.goto(`${hostUrl}/donate.html`);
    const donate = donateOf(page);
    await donate.getByRole("radio", { name: "$50" }).check();
    await fillDonor(page, lastName);
    await donate.getByLabel("E-mail").fill("grace@");
    await showStep(donate, "About you");
    await donate.getByRole("button", { name: "Next" }).click();
    // The contract's rules ran in the page: the donor stays on the step, and nothing went anywhere.
    await expect(donate.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
    await expect(donate.getByRole("heading", { level: 3, name: /About you$/ })).toBeVisible();
    expect(sent).toEqual([]);
    await donate.getByLabel("E-mail").fill("grace@example.org");
    await showStep(donate, "Payment");
    await fillCardAtOnce(cardFrameOf(page));
    await (await reachDonate(donate, DONATE_50)).click();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    expect(await rowsOf(sandbox, lastName)).toHaveLength(1);
    expect(sent.toSorted()).toEqual(["/v1/donations", "/v1/payment-tokens"]);
  });

  test("?fundraiser= on the page's URL attributes the gift to that fundraiser and their team", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const lastName = uniqueLastName("Linked");
    await page.goto(`${hostUrl}/donate.html?fundraiser=104`);
    const donate = donateOf(page);
    await expect(donate.getByText("Your gift supports Dev Patel · Team Night Owls.")).toBeVisible();
    await fillDonor(page, lastName);
    await typeCard(page, GOOD_CARD);
    await (await reachDonate(donate, /^Donate \$25\.00/)).click();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
    const rows = await rowsOf(sandbox, lastName);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ peer_fundraiser_id: "104", peer_fundraiser_team_id: "12" });
  });

  test("a fundraiser's page shows what they have raised so far, as the sandbox counts it", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    // Chloe Park: no other browser test gives to her, so her total is this test's to move.
    const raisedSoFar = async () => {
      const rows = await sandbox.transactions({ keyword: "HOPE", status: "collected" });
      const hers = rows.filter(
        (row) => (row as { peer_fundraiser_id?: string }).peer_fundraiser_id === "103",
      );
      return `${shownMoney(sumCents(hers, "donation_amount"))} raised so far.`;
    };
    await page.goto(`${hostUrl}/donate.html?fundraiser=103`);
    const donate = donateOf(page);
    await expect(donate.getByText("Your gift supports Chloe Park.")).toBeVisible();
    await expect(donate.getByText(await raisedSoFar())).toBeVisible();
  });

  test("the page, the widget's shadow root and the page's requests never hold the card number", async ({
    page,
    context,
    hostUrl,
  }) => {
    const spaced = "4242 4242 4242 4242";
    const pageRequests: Request[] = [];
    const frameRequests: Request[] = [];
    context.on("request", (request) => {
      (request.frame() === page.mainFrame() ? pageRequests : frameRequests).push(request);
    });
    await page.goto(`${hostUrl}/donate.html`);
    await fillDonor(page, uniqueLastName("Private"));
    await typeCard(page, GOOD_CARD);
    await expect(cardFrameOf(page).getByLabel("Card number")).toHaveValue(spaced);

    const seenByPage = await page.evaluate(() => ({
      dom: document.documentElement.outerHTML,
      shadow: document.querySelector("givekit-donate")!.shadowRoot!.innerHTML,
      messages: (window as unknown as { pageMessages: string[] }).pageMessages.join("\n"),
      text: document.body.innerText,
    }));
    for (const seen of Object.values(seenByPage)) {
      expect(seen).not.toContain(GOOD_CARD);
      expect(seen).not.toContain(spaced);
    }

    const donate = donateOf(page);
    await (await reachDonate(donate, /^Donate /)).click();
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });

    const donation = pageRequests.find((request) => request.url().endsWith("/v1/donations"));
    expect(donation?.postDataJSON()).toMatchObject({ credit_card_token: expect.any(String) });
    for (const request of pageRequests) {
      const sent = `${request.url()}\n${request.postData() ?? ""}\n${JSON.stringify(await request.allHeaders())}`;
      expect(sent).not.toContain(GOOD_CARD);
      expect(sent).not.toContain(spaced);
    }
    // Only the card frame, on the proxy's origin, sent the card: to the proxy, and nowhere else.
    const carriers = frameRequests.filter((request) => (request.postData() ?? "").includes(GOOD_CARD));
    expect(carriers.map((request) => new URL(request.url()).pathname)).toEqual(["/v1/payment-tokens"]);
    const shadow = await page.evaluate(() => document.querySelector("givekit-donate")!.shadowRoot!.innerHTML);
    expect(shadow).not.toContain(GOOD_CARD);
  });
});
