import type { ConsentRecord } from "../proxy/store/types";
import { expect, test } from "./fixtures";
import {
  completeOptin,
  consentsOf,
  fillOptin,
  formatted,
  optinOf,
  sha256,
  shownDisclosure,
  uniqueMobile,
} from "./optin-helpers";

test.describe("<givekit-optin> in Chromium against the proxy and the sandbox", () => {
  test("an opt-in to a list reaches the sandbox and leaves a consent record in the proxy's store", async ({
    page,
    sandbox,
    proxyServer,
    hostUrl,
  }) => {
    const mobile = uniqueMobile();
    await page.goto(`${hostUrl}/optin.html`);
    const optin = optinOf(page);
    const disclosure = await shownDisclosure(optin);
    // Typed with the country code and punctuation, as people paste it.
    await fillOptin(optin, `+1 (${mobile.slice(0, 3)}) ${mobile.slice(3, 6)}-${mobile.slice(6)}`);
    await optin.getByRole("button", { name: "Subscribe" }).click();
    await expect(optin.getByRole("heading", { name: "You're subscribed" })).toBeVisible();
    await expect(optin.getByText(`Hope Shelter Alerts will text ${formatted(mobile)}.`)).toBeVisible();

    const subscriptions = (await sandbox.subscriptions()).filter((row) => row.mobilenumber === mobile);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ list: "Hope Alerts", firstname: "Ada", lastname: "Lovelace" });

    // The outcome is recorded in the proxy's next batch write, a moment after the answer.
    await expect
      .poll(() => consentsOf(proxyServer.dataDir, mobile))
      .toMatchObject([{ outcome: "subscribed" }]);
    const [record] = consentsOf(proxyServer.dataDir, mobile) as [ConsentRecord];
    expect(record.list).toBe("Hope Alerts");
    expect(record.consent_text_sha256).toBe(sha256(disclosure));
    expect(record.user_agent).toBe(await page.evaluate(() => navigator.userAgent));
    expect(record.page_url).toContain(new URL(hostUrl).host);
    expect(Date.parse(record.consented_at)).toBeGreaterThan(Date.now() - 60_000);

    const events = await page.evaluate(
      () => (window as unknown as { givekitEvents: unknown[] }).givekitEvents,
    );
    expect(events).toContainEqual({ type: "givekit:ready", detail: { widget: "optin" } });
    expect(events).toContainEqual({ type: "givekit:subscribe", detail: { status: "subscribed" } });
    expect(JSON.stringify(events)).not.toContain(mobile.slice(3));
  });

  test("an opt-in by keyword and shortcode reaches the sandbox under that keyword", async ({
    page,
    sandbox,
    proxyServer,
    hostUrl,
  }) => {
    const mobile = uniqueMobile();
    await page.goto(`${hostUrl}/optin-keyword.html`);
    const sms = optinOf(page).getByRole("link", { name: "or text HOPE to 71777" });
    await expect(sms).toHaveAttribute("href", "sms:71777?&body=HOPE");
    await completeOptin(page, `1${mobile}`);

    const subscriptions = (await sandbox.subscriptions()).filter((row) => row.mobilenumber === mobile);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ keyword: "HOPE", shortcode: "71777", list: null });
    await expect
      .poll(() => consentsOf(proxyServer.dataDir, mobile))
      .toMatchObject([{ keyword: "HOPE", shortcode: "71777", list: null, outcome: "subscribed" }]);
  });

  test("a Spanish form subscribes and records the Spanish disclosure it showed", async ({
    page,
    sandbox,
    proxyServer,
    hostUrl,
  }) => {
    const mobile = uniqueMobile();
    await page.goto(`${hostUrl}/optin-es.html`);
    const optin = optinOf(page);
    const disclosure = await shownDisclosure(optin);
    expect(disclosure).toContain("Responda HELP para obtener ayuda o STOP para cancelar");
    await optin.getByLabel("Número de celular").fill(mobile);
    await optin.getByLabel("Nombre", { exact: true }).fill("Ana");
    await optin.getByLabel("Apellido").fill("García");
    await optin.getByRole("checkbox").check();
    await optin.getByRole("button", { name: "Suscribirme" }).click();
    await expect(optin.getByRole("heading", { name: "Ya está suscrito" })).toBeVisible();

    expect((await sandbox.subscriptions()).some((row) => row.mobilenumber === mobile)).toBe(true);
    expect(consentsOf(proxyServer.dataDir, mobile)).toMatchObject([
      { consent_text_sha256: sha256(disclosure) },
    ]);
  });

  for (const [label, mobile, consent] of [
    ["a 9-digit number", "555010123", true],
    ["a 12-digit number", "555010123456", true],
    ["an unticked consent", "5550109999", false],
  ] as const) {
    test(`${label} never leaves the browser`, async ({ page, sandbox, hostUrl }) => {
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      await page.goto(`${hostUrl}/optin.html`);
      const subscribeCalls = async () =>
        (await sandbox.requests()).filter((call) => call.path.includes("subscribe")).length;
      const callsBefore = await subscribeCalls();
      const optin = optinOf(page);
      await fillOptin(optin, mobile, { consent });
      await optin.getByRole("button", { name: "Subscribe" }).click();

      const field = consent
        ? optin.getByLabel("Mobile number")
        : optin.getByRole("checkbox", { name: /I agree to receive text messages/ });
      await expect(field).toBeFocused();
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(optin.getByRole("status")).toHaveText("Please fix 1 field.");
      expect(posts).toEqual([]);
      expect(await subscribeCalls()).toBe(callsBefore);
    });
  }

  test("without terms-url it logs [givekit] naming the attribute and shows the polite fallback", async ({
    page,
    hostUrl,
  }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${hostUrl}/optin-misconfigured.html`);
    const optin = optinOf(page);
    await expect(optin.getByRole("note")).toHaveText(/not available right now/);
    await expect(optin.getByRole("button")).toHaveCount(0);
    await expect(optin.getByRole("textbox")).toHaveCount(0);
    expect(errors.some((text) => text.startsWith("[givekit]") && text.includes('"terms-url"'))).toBe(true);
  });

  for (const [label, body, code, field] of [
    ["without consent", { list: "Hope Alerts", consent: false }, "consent_required", "consent"],
    [
      "with a 9-digit number",
      { list: "Hope Alerts", consent: true, mobilenumber: "555010123" },
      "validation_failed",
      "mobilenumber",
    ],
    ["without a list or keyword", { consent: true }, "validation_failed", "list"],
  ] as const) {
    test(`the proxy refuses an opt-in ${label} sent from the page around the widget`, async ({
      page,
      sandbox,
      proxyServer,
      hostUrl,
    }) => {
      await page.goto(`${hostUrl}/optin.html`);
      const subscribeCalls = async () =>
        (await sandbox.requests()).filter((call) => call.path.includes("subscribe")).length;
      const callsBefore = await subscribeCalls();
      const request = {
        mobilenumber: uniqueMobile(),
        consent_text: "A disclosure that nobody was shown or agreed to.",
        ...body,
      };
      const answer = await page.evaluate(
        async ({ url, json }) => {
          const response = await fetch(`${url}/v1/subscriptions`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(json),
          });
          return { status: response.status, body: await response.json() };
        },
        { url: proxyServer.url, json: request },
      );
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(code);
      expect(Object.keys(answer.body.errors ?? {})).toContain(field);
      expect(await subscribeCalls()).toBe(callsBefore);
    });
  }
});
