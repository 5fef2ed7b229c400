// The form designer in Chromium, as staff use it: sign in, make a donate form (amounts 50/100/250,
// monthly first, the nonprofit's colour) watching the preview follow, have a failing contrast
// refused with its ratio, copy the snippet, paste it into a page of another origin, give $100 a
// month there (the sandbox records it), change the saved form while pages show it (a new load
// and an untouched form take the new ask, a donor mid-form keeps theirs), and restore version 1.
// Then another element: an SMS sign-up, its program and links set, a bad link named, the preview
// drawing the opt-in (a Subscribe pressed in it sends nothing), and its snippet (attributes
// written out) subscribing on the other origin.
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { inviteLink } from "./dashboard-helpers";
import { donateOf, fillCardAtOnce, cardOf, reachDonate, showStep, uniqueLastName } from "./donor-helpers";
import { expect, test } from "./fixtures";
import { completeOptin, consentsOf, fillOptin, uniqueMobile } from "./optin-helpers";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** The pages the snippets are pasted into, served by the host server (another origin than the proxy's). */
const PASTED = `pasted-${process.pid}.html`;
const PASTED_OPTIN = `pasted-optin-${process.pid}.html`;
const pastedPath = (file: string) => fileURLToPath(new URL(`./pages/${file}`, import.meta.url));
test.afterAll(() => {
  for (const file of [PASTED, PASTED_OPTIN]) rmSync(pastedPath(file), { force: true });
});

/** The nonprofit's page with `snippet` pasted in, as a site's editor would. */
function paste(snippet: string, file = PASTED) {
  writeFileSync(
    pastedPath(file),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Year-end appeal</title></head><body><main><h1>Give before the year ends</h1>${snippet}</main></body></html>`,
  );
}

async function pastedPage(page: Page, hostUrl: string, file = PASTED) {
  await page.goto(`${hostUrl}/${file}`);
}

test("staff make a saved form, paste it once, change its ask and restore it; donors get the form they were meant to", async ({
  browser,
  proxyServer,
  sandbox,
  hostUrl,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: proxyServer.url });
  const staff = await context.newPage();
  await staff.goto(await inviteLink(proxyServer, sandbox.url));
  await staff.waitForURL(`${proxyServer.url}/dashboard`);
  // The cards the sandbox has seen so far (its worker's earlier tests gave): a preview adds none.
  const cardRequests = async () =>
    (await sandbox.requests()).filter((r) => /payment|donat/i.test(r.path)).length;
  const cardsBefore = await cardRequests();
  // From the dashboard to its designer by the link between its pages, as staff find it.
  await staff.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Forms" }).click();
  await staff.waitForURL(`${proxyServer.url}/dashboard/forms`);
  await expect(staff.getByRole("heading", { name: "Forms" })).toBeVisible();
  await expect(staff.getByRole("link", { name: "Forms" })).toHaveAttribute("aria-current", "page");

  await staff.getByLabel("Name (the form").fill("year-end");
  await staff.getByLabel(/^Amounts/).fill("50,100,250");
  await staff.getByLabel("Amount chosen at first").selectOption("100");
  await staff.getByLabel("Frequency chosen at first").selectOption("monthly");
  // The preview is the real widget: it shows the new ask at a phone's width.
  const phone = staff.frameLocator('iframe[title="Phone, 390 px"]');
  await expect(
    phone.locator("givekit-donate").getByRole("radio", { name: "$250", exact: true }),
  ).toBeVisible();
  await expect(
    phone.locator("givekit-donate").getByRole("radio", { name: "$100", exact: true }),
  ).toBeChecked();

  // A preview never charges: no card frame is drawn in it, and nothing of it reached the upstream's cards.
  await phone.locator("givekit-donate").getByRole("button", { name: "Next" }).click();
  await expect(phone.locator("givekit-donate").getByLabel("First name")).toBeVisible();
  expect(await cardRequests()).toBe(cardsBefore);

  // A pale accent: warned with its ratio as it is typed, refused with it on save.
  await staff.getByRole("textbox", { name: "Accent colour", exact: true }).fill("#7fb2ff");
  await expect(staff.getByText(/Button text \/ accent: 2\.\d\d:1/)).toBeVisible();
  await staff.getByRole("button", { name: "Save" }).click();
  await expect(staff.getByRole("status")).toContainText(/Not saved.*contrast 2\.\d\d:1, at least 4\.5:1/);
  await staff.getByRole("textbox", { name: "Accent colour", exact: true }).fill("#0b5394");
  await staff.getByRole("button", { name: "Save" }).click();
  await expect(staff.getByRole("status")).toHaveText("Saved as version 1.");

  await staff.getByRole("button", { name: "Copy" }).click();
  const snippet = await staff.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toBe(
    `<script src="${proxyServer.url}/widget.js" async></script>\n<givekit-donate shortcode="71777" keyword="HOPE" form="year-end"></givekit-donate>`,
  );
  expect(await new AxeBuilder({ page: staff }).withTags(WCAG_TAGS).exclude("iframe").analyze()).toMatchObject(
    {
      violations: [],
    },
  );

  // A donor on the nonprofit's site gives $100 a month through the pasted form.
  const donor = await context.newPage();
  await paste(snippet);
  await pastedPage(donor, hostUrl);
  const donate = donateOf(donor);
  await expect(donate.getByRole("radio", { name: "$100", exact: true })).toBeChecked();
  await expect(donate.getByRole("radio", { name: "Monthly" })).toBeChecked();
  await expect(donate.getByRole("radio", { name: "$25", exact: true })).toHaveCount(0);
  const lastName = uniqueLastName("Saved");
  await showStep(donate, "About you");
  await donate.getByLabel("First name").fill("Maya");
  await donate.getByLabel("Last name").fill(lastName);
  await donate.getByLabel("E-mail").fill("maya@example.org");
  await showStep(donate, "Payment");
  await fillCardAtOnce(cardOf(donor));
  await (await reachDonate(donate)).click();
  await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
  const mine = (await sandbox.transactions({ keyword: "HOPE" })).filter((row) => row.last_name === lastName);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({
    status: "collected",
    donation_amount: "100.00",
    transaction_type: "recurring_donation",
    recurring_frequency: "monthly",
  });

  // Two pages show the form: one untouched, one with a donor mid-form.
  const untouched = await context.newPage();
  await pastedPage(untouched, hostUrl);
  const midForm = await context.newPage();
  await pastedPage(midForm, hostUrl);
  await donateOf(midForm).getByRole("radio", { name: "$250", exact: true }).check();
  await showStep(donateOf(midForm), "About you");
  await donateOf(midForm).getByLabel("First name").fill("Ruth");

  await staff.getByLabel(/^Amounts/).fill("75,150,300");
  await staff.getByLabel("Amount chosen at first").selectOption("150");
  await staff.getByRole("button", { name: "Save" }).click();
  await expect(staff.getByRole("status")).toHaveText("Saved as version 2.");
  await expect(staff.getByText(/^v2 · events desk/)).toBeVisible();

  const nextLoad = await context.newPage();
  await pastedPage(nextLoad, hostUrl);
  await expect(donateOf(nextLoad).getByRole("radio", { name: "$150", exact: true })).toBeChecked();
  // Within a minute the open, untouched form asks the new amounts; the donor mid-form keeps theirs.
  await expect(donateOf(untouched).getByRole("radio", { name: "$300", exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await expect(donateOf(midForm).getByLabel("First name")).toHaveValue("Ruth");
  await showStep(donateOf(midForm), "Your gift");
  await expect(donateOf(midForm).getByRole("radio", { name: "$250", exact: true })).toBeChecked();

  // Version 1 back, in one click.
  await staff.getByRole("button", { name: "Restore v1" }).click();
  await expect(staff.getByRole("status")).toHaveText("Saved as version 3.");
  const restored = await context.newPage();
  await pastedPage(restored, hostUrl);
  await expect(donateOf(restored).getByRole("radio", { name: "$100", exact: true })).toBeChecked();
  await expect(donateOf(restored).getByRole("radio", { name: "$300", exact: true })).toHaveCount(0);
  await context.close();
});

test("staff make an SMS sign-up: its program and links set, the preview draws it, and its snippet pasted on another origin subscribes", async ({
  browser,
  proxyServer,
  sandbox,
  hostUrl,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: proxyServer.url });
  const staff = await context.newPage();
  await staff.goto(await inviteLink(proxyServer, sandbox.url));
  await staff.waitForURL(`${proxyServer.url}/dashboard`);
  await staff.goto(`${proxyServer.url}/dashboard/forms`);
  await staff.getByLabel("Element", { exact: true }).selectOption("optin");
  await expect(staff.getByLabel(/^Amounts/)).toHaveCount(0);

  await staff.getByLabel("Program name").fill("Hope Shelter Alerts");
  // A link that is no web address is named under its control, as the opt-in itself words it.
  await staff.getByLabel("Terms URL").fill("javascript:alert(1)");
  await expect(staff.getByText("must be an http or https URL", { exact: true })).toBeVisible();
  await staff.getByLabel("Terms URL").fill(`${hostUrl}/sms-terms`);
  await staff.getByLabel("Privacy policy URL").fill(`${hostUrl}/privacy`);
  await expect(staff.getByRole("alert")).toHaveCount(0);

  // The preview is the real opt-in, naming the program in its disclosure.
  const preview = staff.frameLocator('iframe[title="Phone, 390 px"]').locator("givekit-optin");
  await expect(preview.getByRole("button", { name: "Subscribe" })).toBeVisible();
  await expect(preview.getByText(/from Hope Shelter Alerts/).first()).toBeVisible();
  // A preview sends nothing: a number entered and Subscribe pressed there reach neither the sandbox
  // nor the consent records, and the preview says why rather than breaking.
  const tried = uniqueMobile();
  await fillOptin(preview, tried);
  await preview.getByRole("button", { name: "Subscribe" }).click();
  const notSent = staff
    .frameLocator('iframe[title="Phone, 390 px"]')
    .getByRole("status")
    .filter({ hasText: "Not sent" });
  // Whichever it comes to (a sign-up that went through would say so), then what the records hold.
  await expect(notSent.or(preview.getByRole("heading", { name: "You're subscribed" }))).toBeVisible();
  expect((await sandbox.subscriptions()).filter((row) => row.mobilenumber === tried)).toEqual([]);
  expect(consentsOf(proxyServer.dataDir, tried)).toEqual([]);
  await expect(notSent).toHaveText("Not sent: a preview sends nothing. Try it on your page.");
  await expect(preview.getByRole("button", { name: "Subscribe" })).toBeVisible();
  // Only a donate form is saved: the page offers no save and says so.
  await expect(staff.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(staff.getByText(/^Only a donation form is saved here/)).toBeVisible();
  const axe = await new AxeBuilder({ page: staff }).withTags(WCAG_TAGS).exclude("iframe").analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);

  await staff.getByRole("button", { name: "Copy" }).click();
  const snippet = await staff.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toBe(
    `<script src="${proxyServer.url}/widget.js" async></script>\n<givekit-optin shortcode="71777" keyword="HOPE" program-name="Hope Shelter Alerts" terms-url="${hostUrl}/sms-terms" privacy-url="${hostUrl}/privacy"></givekit-optin>`,
  );

  // Someone on the nonprofit's site signs up through the pasted opt-in; the sandbox and the consent record have it.
  const person = await context.newPage();
  paste(snippet, PASTED_OPTIN);
  await pastedPage(person, hostUrl, PASTED_OPTIN);
  const mobile = uniqueMobile();
  await completeOptin(person, mobile);
  const subscribed = (await sandbox.subscriptions()).filter((row) => row.mobilenumber === mobile);
  expect(subscribed).toHaveLength(1);
  expect(subscribed[0]).toMatchObject({
    keyword: "HOPE",
    shortcode: "71777",
    firstname: "Ada",
    lastname: "Lovelace",
  });
  await expect
    .poll(() => consentsOf(proxyServer.dataDir, mobile))
    .toMatchObject([{ keyword: "HOPE", shortcode: "71777", outcome: "subscribed" }]);
  await context.close();
});

for (const width of [390, 1920])
  test(`the designer reads at ${width} px, in English and Spanish, with nothing wider than the screen, and axe finds nothing`, async ({
    browser,
    proxyServer,
    sandbox,
  }) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const staff = await context.newPage();
    await staff.goto(await inviteLink(proxyServer, sandbox.url));
    await staff.waitForURL(`${proxyServer.url}/dashboard`);
    for (const [lang, title, save, panels] of [
      ["en", "Forms", "Save", "How giving goes"],
      ["es", "Formularios", "Guardar", "Cómo van los donativos"],
    ] as const) {
      await staff.goto(`${proxyServer.url}/dashboard/forms?lang=${lang}`);
      await expect(staff.getByRole("heading", { name: title, exact: true })).toBeVisible();
      await expect(staff.getByRole("button", { name: save, exact: true })).toBeVisible();
      // The link back to the panels keeps the language the address chose.
      await expect(staff.getByRole("link", { name: panels })).toHaveAttribute(
        "href",
        `/dashboard?lang=${lang}`,
      );
      // The page never scrolls sideways: the preview's frames wrap, each as wide as the screen allows.
      expect(await staff.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const axe = await new AxeBuilder({ page: staff }).withTags(WCAG_TAGS).exclude("iframe").analyze();
      expect(axe.violations.map((violation) => violation.id)).toEqual([]);
    }
    await context.close();
  });
