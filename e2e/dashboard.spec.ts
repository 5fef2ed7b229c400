// The staff dashboard in Chromium: signed in with a link from `givekit dashboard invite`, it shows
// the form's funnel as the beacons counted it and giving as the proxy recorded it, moves while
// open (server-sent events), reads at 390 and 1920 px without overflow, and axe finds nothing.
import { randomUUID } from "node:crypto";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { PowChallenge } from "../contract/api";
import { solvePow } from "../test/helpers/pow-solver";
import { headsUnder, inviteLink, rowsUnder, sidewaysScroll } from "./dashboard-helpers";
import { expect, test, withServers } from "./fixtures";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const ENV = { GIVEKIT_DASHBOARD_LIVE_S: "1" };

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: res.status === 204 ? null : await res.json() };
}

/**
 * One donor's form: a session, the steps its beacons tell (and why it stopped), then, with a
 * `card`, its gift through the proxy, which counts the gift sent, thanked or declined itself.
 */
async function donorSteps(
  proxyUrl: string,
  steps: string[],
  stop?: { step: string; reason: string },
  channel?: string,
  card?: string,
) {
  const { json } = await post(`${proxyUrl}/v1/form-sessions`, { shortcode: "71777", keyword: "HOPE" });
  const events = [...steps.map((step) => ({ step, reason: "reached" })), ...(stop ? [stop] : [])];
  const reply = await fetch(`${proxyUrl}/v1/form-events`, {
    method: "POST",
    headers: { "Content-Type": "text/plain;charset=UTF-8" },
    body: JSON.stringify({ form_session: json.form_session, device: "phone", channel, events }),
  });
  expect(reply.status).toBe(204);
  if (card) await give(proxyUrl, "10.00", card, json.form_session);
}

/** A gift through the proxy to the sandbox: a card tokenized (a challenge solved when asked), then donated. */
async function give(proxyUrl: string, amount: string, card = "4242424242424242", formSession?: string) {
  const session =
    formSession ??
    (await post(`${proxyUrl}/v1/form-sessions`, { shortcode: "71777", keyword: "HOPE" })).json.form_session;
  const fields = {
    card_number: card,
    cvv: "317",
    expiration_date: FUTURE_EXPIRY,
    website: "",
    form_session: session,
  };
  let token = await post(`${proxyUrl}/v1/payment-tokens`, fields);
  if (token.json.code === "challenge_required")
    token = await post(`${proxyUrl}/v1/payment-tokens`, {
      ...fields,
      challenge_token: await solvePow(token.json.challenge as PowChallenge),
    });
  const gift = await post(
    `${proxyUrl}/v1/donations`,
    {
      shortcode: "71777",
      keyword: "HOPE",
      amount,
      donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org" },
      credit_card_token: token.json.token,
    },
    { "Idempotency-Key": randomUUID() },
  );
  expect(gift.status).toBe(card === "4000000000000002" ? 402 : 200);
}

async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const element of document.querySelectorAll("*")) {
      // Inside a scrolling panel (a wide table) is not past the page's edge.
      if (element.closest(".scroll")) continue;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && (box.left < -1 || box.right > width + 1)) out.push(element.tagName);
    }
    return out;
  });
}

test.describe("the staff dashboard", () => {
  test("signed in by its link: the funnel is what the donors did, giving moves live, 390 and 1920 px without overflow, axe clean", async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    await withServers(ENV, async ({ sandbox, proxy, host }) => {
      // Six donors: two leave at the amount, three give and are thanked, one is declined (the
      // proxy counts the gifts sent, thanked and declined from what it did with their cards).
      await donorSteps(proxy.url, ["shown"], { step: "shown", reason: "closed" }, "email");
      await donorSteps(proxy.url, ["shown"], undefined, "sms");
      for (let i = 0; i < 3; i++)
        await donorSteps(
          proxy.url,
          ["shown", "amount", "details", "card"],
          undefined,
          "email",
          "4242424242424242",
        );
      await give(proxy.url, "25.00");
      await donorSteps(
        proxy.url,
        ["shown", "amount", "details", "card"],
        undefined,
        "email",
        "4000000000000002",
      );

      const link = await inviteLink(proxy, sandbox.url);
      for (const viewport of [
        { width: 390, height: 844 },
        { width: 1920, height: 1080 },
      ]) {
        const first = viewport.width === 390;
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        // Before signing in: 401, and no campaign named.
        const refused = await page.goto(`${proxy.url}/dashboard`);
        expect(refused!.status()).toBe(401);
        expect(await page.content()).not.toContain("HOPE");
        if (viewport.width === 390) {
          await page.goto(link);
        } else {
          // A second context needs its own link: the first was spent.
          await page.goto(await inviteLink(proxy, sandbox.url));
        }
        await expect(page).toHaveURL(`${proxy.url}/dashboard?period=today`);
        await expect(page.locator("h1")).toHaveText("How giving goes");
        // Drawn once the first figures came.
        await expect(page.locator("#status")).toContainText("Live");
        // The direct gifts' sessions sent no beacon: their outcomes wait for one (5 s at most) before
        // they count under `direct`, and the page draws them at its next live read.
        await expect(async () => {
          expect(await rowsUnder(page, "Where donors stop")).toEqual([
            "Form shown | 6 | 2 (33.3%) | closed the form: 1",
            "Gift chosen | 4 | 0 (0%) | ",
            "Details given | 4 | 0 (0%) | ",
            "Card entered | 4 | 0 (0%) | ",
            // The direct gifts' sessions sent no beacon: sent and thanked, never shown.
            first
              ? "Gift sent | 5 | 1 (20%) | card declined: 1"
              : "Gift sent | 6 | 1 (16.7%) | card declined: 1",
            `Thank-you | ${first ? 4 : 5} | 0 (0%) | `,
          ]);
          // Per channel: forms shown, gifts sent, thanked, cards declined, the share finished. The
          // direct gifts (no form beacons) are sent and thanked under `direct`, shown nowhere.
          expect(await rowsUnder(page, "By channel")).toEqual([
            "email | 5 | 4 | 3 | 1 | 60%",
            "sms | 1 | 0 | 0 | 0 | 0%",
            `direct | 0 | ${first ? 1 : 2} | ${first ? 1 : 2} | 0 | 0%`,
          ]);
          expect(await rowsUnder(page, "By device")).toEqual([
            "Phone | 6 | 4 | 3 | 1 | 50%",
            `Larger screen | 0 | ${first ? 1 : 2} | ${first ? 1 : 2} | 0 | 0%`,
          ]);
        }).toPass({ timeout: 15_000 });
        expect(await headsUnder(page, "By channel")).toEqual([
          "Channel",
          "Forms shown",
          "Gifts sent",
          "Gifts thanked",
          "Cards declined",
          "Finished",
        ]);
        // Read without scrolling sideways, on a phone too (a card per channel there), and still a
        // table to a screen reader: its head and a row per channel.
        for (const heading of ["By channel", "By device"])
          expect(await sidewaysScroll(page, heading), heading).toBe(0);
        const channels = page.getByRole("table", { name: "By channel" });
        await expect(channels.getByRole("row")).toHaveCount(4);
        await expect(channels.getByRole("columnheader", { name: "Gifts sent" })).toHaveCount(1);
        await expect(channels.getByRole("row", { name: /^email / }).getByRole("cell")).toHaveText([
          "5",
          "4",
          "3",
          "1",
          "60%",
        ]);
        const gifts = page.locator(".figure dd").first();
        await expect(gifts).toHaveText(viewport.width === 390 ? "4" : "5");
        await expect(page.locator("svg.chart rect.bar")).not.toHaveCount(0);
        // A gift made with the dashboard open moves it within the live interval.
        await give(proxy.url, "40.00");
        await expect(gifts).toHaveText(viewport.width === 390 ? "5" : "6", { timeout: 5000 });
        expect(await overflowing(page)).toEqual([]);
        if (viewport.width === 390) {
          // The cookie replayed from another site (localhost is not 127.0.0.1's site): SameSite=Strict
          // keeps it home, so the proxy sees no session; from its own page it does.
          const other = await context.newPage();
          // A page of that other site linking to the dashboard's data: following the link is a
          // cross-site navigation, which a Lax cookie would still go with and a Strict one does not.
          const elsewhere = `${host.url.replace("127.0.0.1", "localhost")}/elsewhere.html`;
          const data = `${proxy.url}/dashboard/data.json?period=30d`;
          await other.route(elsewhere, (route) =>
            route.fulfill({
              contentType: "text/html",
              body: `<!doctype html><title>elsewhere</title><a href="${data}">figures</a>`,
            }),
          );
          await other.goto(elsewhere);
          const [followed] = await Promise.all([other.waitForResponse(data), other.click("a")]);
          expect(followed.status()).toBe(401);
          expect(await followed.text()).not.toContain("HOPE");
          // Opened from the dashboard's own site, the same address answers.
          expect((await other.goto(data))!.status()).toBe(200);
          await other.close();
        }
        if (viewport.width === 1920) {
          // In Spanish, as asked; the address keeps the language for a reload.
          await page.goto(`${proxy.url}/dashboard?lang=es&period=7d`);
          await expect(page.locator("h1")).toHaveText("Cómo van los donativos");
          await expect(page.locator("#period")).toHaveValue("7d");
          expect((await rowsUnder(page, "Dónde se detienen los donantes"))[0]).toBe(
            "Formulario mostrado | 6 | 2 (33.3%) | cerró el formulario: 1",
          );
          expect(await headsUnder(page, "Por canal")).toEqual([
            "Canal",
            "Formularios mostrados",
            "Donativos enviados",
            "Donativos agradecidos",
            "Tarjetas rechazadas",
            "Terminaron",
          ]);
          expect((await rowsUnder(page, "Por canal"))[0]).toMatch(/^email \| 5 \| 4 \| 3 \| 1 \| 60\s?%$/);
          await page.reload();
          await expect(page.locator("h1")).toHaveText("Cómo van los donativos");
        }
        const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
        expect(results.violations.map((violation) => violation.id)).toEqual([]);
        await context.close();
      }
      expect(proxy.logs.filter((line) => line.includes('"dashboard_sign_in":"events desk"'))).toHaveLength(2);
    });
  });

  test("the defence panel: a challenged donor's solve time, the decline at the network, the refusal, and their CSV; in Spanish too; 390 and 1920 px, axe clean", async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    // One decline makes this address's next card meet a challenge.
    await withServers({ ...ENV, GIVEKIT_DECLINE_LIMIT: "1" }, async ({ sandbox, proxy }) => {
      const card = (number: string, session: string, proof?: string) =>
        post(`${proxy.url}/v1/payment-tokens`, {
          card_number: number,
          cvv: "317",
          expiration_date: FUTURE_EXPIRY,
          website: "",
          form_session: session,
          ...(proof ? { challenge_token: proof } : {}),
        });
      const session = async () =>
        (await post(`${proxy.url}/v1/form-sessions`, { shortcode: "71777", keyword: "HOPE" })).json
          .form_session as string;
      const declinedToken = await card("4000000000000002", await session());
      const declined = await post(
        `${proxy.url}/v1/donations`,
        {
          shortcode: "71777",
          keyword: "HOPE",
          amount: "10.00",
          donor: { first_name: "Bo", last_name: "Lee", email: "bo@example.org" },
          credit_card_token: declinedToken.json.token,
        },
        { "Idempotency-Key": randomUUID() },
      );
      expect(declined.status).toBe(402);
      // The challenged donor: asked, solves it as the card frame does, and the card goes through.
      const donor = await session();
      const asked = await card("4242424242424242", donor);
      expect(asked.json.code).toBe("challenge_required");
      const proof = await solvePow(asked.json.challenge as PowChallenge);
      expect((await card("4242424242424242", donor, proof)).status).toBe(201);
      // The same solution again is refused.
      expect((await card("4242424242424242", donor, proof)).json.code).toBe("challenge_failed");

      for (const viewport of [
        { width: 390, height: 844 },
        { width: 1920, height: 1080 },
      ]) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await page.goto(await inviteLink(proxy, sandbox.url));
        await expect(page.locator("h1")).toHaveText("How giving goes");
        const figure = (label: string) =>
          page.locator(`section:has(h2:text-is('Defence')) .figure:has(dt:text-is('${label}')) dd`);
        await expect(figure("Challenges asked")).toHaveText("1");
        await expect(figure("Challenges solved")).toHaveText("1");
        // The solve time donors paid: a bucket's bound, never a dash once one was solved.
        await expect(figure("Solve time, median")).toHaveText(/^≤ \d+(\.\d+)? m?s$/);
        await expect(figure("Declined by the card network")).toHaveText("1");
        await expect(figure("Breakers open now")).toHaveText("none");
        expect(await rowsOf(page, "Refused before the network")).toEqual(["challenge_failed | 1"]);
        expect(await rowsOf(page, "The defence per hour")).toEqual([
          expect.stringMatching(/ \| 1 \| 1 \| 1 \| 1$/),
        ]);
        expect(await rowsOf(page, "Upstream answers")).toEqual([
          "createPaymentToken:answered | 2",
          "donate:answered | 1",
        ]);
        expect(await overflowing(page)).toEqual([]);
        const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
        expect(results.violations.map((violation) => violation.id)).toEqual([]);
        if (viewport.width === 1920) {
          const csv = await page.evaluate(async () =>
            (await fetch("/dashboard/refusals.csv?period=today")).text(),
          );
          expect(csv).toBe("reason,count\r\nchallenge_failed,1\r\n");
          const hours = await page.evaluate(async () =>
            (await fetch("/dashboard/defence.csv?period=today")).text(),
          );
          expect(hours.split("\r\n")[0]).toBe("hour,challenges_asked,challenges_solved,refused,declined");
          expect(hours).toMatch(/,1,1,1,1\r\n/);
          await page.goto(`${proxy.url}/dashboard?lang=es`);
          await expect(page.locator("h2", { hasText: "Defensa" })).toBeVisible();
          await expect(
            page.locator(
              `section:has(h2:text-is('Defensa')) .figure:has(dt:text-is('Verificaciones resueltas')) dd`,
            ),
          ).toHaveText("1");
          const spanish = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
          expect(spanish.violations.map((violation) => violation.id)).toEqual([]);
        }
        await context.close();
      }
    });
  });
});

/** The rows of the table with this caption, each as "cell | cell | …". */
async function rowsOf(page: Page, caption: string): Promise<string[]> {
  return page
    .locator(`table:has(caption:text-is('${caption}')) tbody tr`)
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent).join(" | ")));
}
