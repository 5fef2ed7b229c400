// An opt-in the fundraising service refuses, through the real stack: this proxy subscribes with
// another account's PUBLIC token (River Trust's, a mix-up of the kind a deploy can make), and
// that account has no "Hope Alerts" list, so the sandbox answers 404 and nothing is subscribed.
import { startProxy } from "../test/helpers/proxy";
import { DEMO } from "../test/helpers/sandbox";
import { expect, startHostServer, test } from "./fixtures";
import { consentsOf, fillOptin, optinOf, uniqueMobile } from "./optin-helpers";

test("a refused opt-in: the widget says so and offers the keyword; the consent record says rejected", async ({
  page,
  sandbox,
}) => {
  let proxyUrl = "";
  const host = await startHostServer(() => proxyUrl);
  const proxy = await startProxy({
    upstreamUrl: sandbox.url,
    allowedOrigins: [host.url],
    env: { UPSTREAM_PUBLIC_TOKEN: DEMO.river.publicToken },
  });
  proxyUrl = proxy.url;
  try {
    const mobile = uniqueMobile();
    await page.goto(`${host.url}/optin.html`);
    const optin = optinOf(page);
    const button = optin.getByRole("button", { name: "Subscribe" });
    await fillOptin(optin, mobile);
    await button.click();

    // Announced, and described on the button, which stays so the person can try another way.
    await expect(optin.getByRole("status")).toContainText("We could not sign up this number.");
    await expect(button).toHaveAccessibleDescription(
      /^We could not sign up this number\..*If you once replied STOP, text HOPE to 71777 to join again\.$/,
    );
    await expect(optin.getByLabel("Mobile number")).not.toHaveValue("");
    await expect(optin.getByRole("heading", { name: "You're subscribed" })).toHaveCount(0);
    await expect(optin.getByRole("link", { name: "or text HOPE to 71777" })).toHaveAttribute(
      "href",
      "sms:71777?&body=HOPE",
    );

    expect((await sandbox.subscriptions()).filter((row) => row.mobilenumber === mobile)).toEqual([]);
    await expect
      .poll(() => consentsOf(proxy.dataDir, mobile))
      .toMatchObject([{ list: "Hope Alerts", outcome: "rejected" }]);
    const events = await page.evaluate(
      () => (window as unknown as { givekitEvents: unknown[] }).givekitEvents,
    );
    expect(events).toContainEqual({ type: "givekit:error", detail: { code: "subscription_rejected" } });
  } finally {
    await host.close();
    await proxy.close();
  }
});
