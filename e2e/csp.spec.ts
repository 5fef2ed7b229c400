/**
 * widget/README.md's "Content-Security-Policy on your page", taken at its word: the page is
 * served with exactly the header the README shows (the test proxy's origin in place of the
 * example one), and a donation and an opt-in go through with no policy violation.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "./fixtures";
import { chooseAndFillDonor, donateOf, reachDonate, showStep } from "./donor-helpers";
import { fillOptin, GOOD_CARD, uniqueMobile } from "./optin-helpers";

const README = fileURLToPath(new URL("../widget/README.md", import.meta.url));
const EXAMPLE_PROXY = "https://give.example.org";

/** The policy the README gives nonprofits, as one header value. */
function documentedPolicy(): string {
  const readme = readFileSync(README, "utf8");
  const section = readme.slice(readme.indexOf("## Content-Security-Policy on your page"));
  const header = /^Content-Security-Policy: (.+)$/m.exec(section);
  if (!header) throw new Error("widget/README.md shows no Content-Security-Policy header");
  return header[1]!;
}

test("a donation and an opt-in go through, and the goal moves, under the README's Content-Security-Policy, with no violation", async ({
  page,
  sandbox,
  proxyServer,
  hostUrl,
  hostServer,
}) => {
  const policy = documentedPolicy();
  expect(policy).not.toContain("unsafe-inline");
  expect(policy).not.toContain("unsafe-eval");
  hostServer.setPageHeaders("csp.html", {
    "Content-Security-Policy": policy.replaceAll(EXAMPLE_PROXY, new URL(proxyServer.url).origin),
  });
  const lastName = `Policy${Date.now().toString(36)}${process.pid}`;
  const mobile = uniqueMobile();

  const served = await page.goto(`${hostUrl}/csp.html`);
  expect(served?.headers()["content-security-policy"]).toContain("script-src 'self' http://127.0.0.1:");
  const goalBar = page.locator("givekit-goal").getByRole("progressbar");
  await expect(goalBar).toHaveAttribute("aria-valuetext", /^\$/);
  const raisedBefore = await goalBar.getAttribute("aria-valuetext");
  const donate = page.locator("givekit-donate");
  await donate.getByRole("radio", { name: "$25" }).check();
  await showStep(donate, "About you");
  await donate.getByLabel("First name").fill("Ada");
  await donate.getByLabel("Last name").fill(lastName);
  await donate.getByLabel("E-mail").fill("ada@example.org");
  await showStep(donate, "Payment");
  const card = donate.locator("iframe").contentFrame();
  await card.getByLabel("Card number").fill(GOOD_CARD.number);
  await card.getByLabel("Expiry date").fill(GOOD_CARD.expiry);
  await card.getByLabel("Security code").fill(GOOD_CARD.cvv);
  await (await reachDonate(donate, "Donate $25.00")).click();
  await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
  // The goal heard the gift and asked the proxy again, its bar drawn through the CSSOM.
  await expect(goalBar).not.toHaveAttribute("aria-valuetext", raisedBefore!);

  const optin = page.locator("givekit-optin");
  await fillOptin(optin, mobile);
  await optin.getByRole("button", { name: "Subscribe" }).click();
  await expect(optin.getByRole("heading", { name: "You're subscribed" })).toBeVisible();

  const charged = (await sandbox.transactions({ keyword: "HOPE" })).filter(
    (row) => row.last_name === lastName,
  );
  expect(charged).toHaveLength(1);
  expect(charged[0]).toMatchObject({ status: "collected", amount: "25.00", last_4: "4242" });
  const subscribed = (await sandbox.subscriptions()).filter((row) => row.mobilenumber === mobile);
  expect(subscribed).toHaveLength(1);
  expect(subscribed[0]).toMatchObject({ list: "Hope Alerts" });

  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
    [],
  );
});

test("the same page notices a violation: the check above can fail", async ({ page, hostUrl, hostServer }) => {
  // A policy without the proxy in script-src: widget.js is refused, and the page hears it.
  hostServer.setPageHeaders("csp.html", { "Content-Security-Policy": "script-src 'self'" });
  await page.goto(`${hostUrl}/csp.html`);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))
    .toEqual([expect.stringMatching(/^script-src-elem http:\/\/127\.0\.0\.1:\d+\/widget\.js$/)]);
});

test("a page whose policy leaves the proxy out of frame-src: the card form says it could not load, and the console why", async ({
  page,
  proxyServer,
  hostUrl,
  hostServer,
}) => {
  const proxy = new URL(proxyServer.url).origin;
  const policy = documentedPolicy()
    .replaceAll(EXAMPLE_PROXY, proxy)
    .split(";")
    .filter((directive) => !directive.trim().startsWith("frame-src"))
    .join(";");
  hostServer.setPageHeaders("csp.html", { "Content-Security-Policy": `${policy}; frame-src 'none'` });
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(`${hostUrl}/csp.html`);
  await chooseAndFillDonor(page, `NoFrame${Date.now().toString(36)}`);
  await showStep(donateOf(page), "Payment");
  const notice = donateOf(page).getByRole("alert").filter({ hasText: "The card form could not load." });
  await expect(notice).toBeVisible({ timeout: 15_000 });
  expect(
    errors.some((text) => text.startsWith("[givekit]") && text.includes(`frame-src must allow ${proxy}`)),
  ).toBe(true);
});
