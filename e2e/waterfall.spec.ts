// The waterfall a donor waits for, on the page with the snippet's two lines alone: each answer
// 150 ms away, so requests that wait for one another stand apart. widget.js asks for everything
// the form needs at once, the card frame's page too, so the first step is one wave after it and
// the card field one more (the frame's script; its stylesheet is in its page). Each file is
// fetched once.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { shortName, visitDonatePage } from "./waterfall";

/** A round trip long enough that a request sent after another's answer cannot pass for its neighbour. */
const NETWORK = { latency: 150, kbps: 20_000 };

test("the first step one wave after widget.js, the card field one more; each file fetched once", async ({
  page,
  hostUrl,
}) => {
  const visit = await visitDonatePage(page, `${hostUrl}/snippet.html`, { network: NETWORK });
  const rows = visit.requests.map(
    (request) =>
      `  ${String(request.depth).padStart(2)}  ${request.sent.toFixed(0).padStart(5)} ms → ${request.answered?.toFixed(0).padStart(5) ?? "    -"} ms  ${shortName(request)}`,
  );
  process.stdout.write(
    `snippet.html, ${NETWORK.latency} ms a round trip: first step ${visit.firstStepMs.toFixed(0)} ms (depth ${visit.depth.firstStep}), ` +
      `card field ${visit.cardReadyMs.toFixed(0)} ms (depth ${visit.depth.card})\n${rows.join("\n")}\n`,
  );

  const depthOf = (name: string) => visit.requests.find((request) => shortName(request) === name)?.depth;
  // The page, widget.js, then one wave: the form's code, its words, its campaign and the card
  // frame's page.
  expect(depthOf("/snippet.html")).toBe(1);
  expect(depthOf("/widget.js")).toBe(2);
  for (const name of ["/assets/donate.js", "/assets/donate-en.js", "/v1/campaigns/71777/HOPE", "/frame/card"])
    expect(depthOf(name), name).toBe(3);
  expect(visit.depth.firstStep).toBe(3);
  // Then the frame's script (its stylesheet came in its page: no request of its own); the card
  // field takes its look from the first step, not from the rest of the form, which the form asks
  // for as it starts.
  expect(depthOf("/assets/card.js")).toBe(4);
  expect(visit.requests.filter((request) => new URL(request.url).pathname.endsWith(".css"))).toEqual([]);
  expect(visit.depth.card).toBe(4);
  expect(depthOf("/assets/later.js")).toBe(4);
  expect(depthOf("/assets/donate-later-en.js")).toBe(4);

  const asked = visit.requests.map((request) => `${request.method} ${request.url}`);
  expect(asked.filter((request, index) => asked.indexOf(request) !== index)).toEqual([]);
});

test.describe("what widget.js asks for early fails as the form's own request would", () => {
  const unavailable = /This form is not available right now/;

  test("a campaign the proxy does not serve: the polite note, its campaign asked once", async ({
    page,
    hostUrl,
    proxyServer,
  }) => {
    const asked: string[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(`${proxyServer.url}/v1/`)) asked.push(new URL(request.url()).pathname);
    });
    await page.goto(`${hostUrl}/snippet-not-served.html`);
    await expect(page.locator("givekit-donate").getByText(unavailable)).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(asked).toEqual(["/v1/campaigns/71777/NOPE"]);
  });

  test("the early campaign request fails: the form asks again itself and works, no error shown", async ({
    page,
    hostUrl,
  }) => {
    let asked = 0;
    await page.route("**/v1/campaigns/71777/HOPE", async (route) => {
      asked += 1;
      if (asked === 1) await route.abort("connectionreset");
      else await route.continue();
    });
    await page.goto(`${hostUrl}/snippet.html`);
    const donate = page.locator("givekit-donate");
    await donate.getByRole("radio", { name: "$50" }).check();
    await expect(donate.getByRole("button", { name: "Next" })).toBeEnabled();
    expect(asked).toBe(2);
    await expect(donate.getByRole("alert")).toHaveCount(0);
    await expect(donate.getByText(unavailable)).toHaveCount(0);
  });

  test("the proxy does not answer the campaign at all: the polite note, never a blank form", async ({
    page,
    hostUrl,
  }) => {
    let asked = 0;
    await page.route("**/v1/campaigns/71777/HOPE", async (route) => {
      asked += 1;
      await route.abort("connectionrefused");
    });
    await page.goto(`${hostUrl}/snippet.html`);
    await expect(page.locator("givekit-donate").getByText(unavailable)).toBeVisible();
    // widget.js's request, then the form's own: no more.
    expect(asked).toBe(2);
  });

  // Chromium keeps a module that failed to load as failed for the page's life (its module map),
  // for widget.js's import as for the form's own before it: the same URL is not fetched again.
  // The donor is told, as before widget.js imported it early; nothing goes blank.
  test("the rest of the form fails to come: the first step still works, and Next says the connection failed", async ({
    page,
    hostUrl,
  }) => {
    await page.route("**/assets/later-*.js", (route) => route.abort("connectionreset"));
    await page.goto(`${hostUrl}/snippet.html`);
    const donate = page.locator("givekit-donate");
    await donate.getByRole("radio", { name: "$50" }).check();
    await expect(donate.getByRole("alert")).toHaveCount(0);
    await donate.getByRole("button", { name: "Next" }).click();
    await expect(donate.getByRole("alert")).toHaveText(/could not reach the server/);
    await expect(donate.getByRole("heading", { name: "Step 1 of 3: Your gift" })).toBeVisible();
  });
});

/** Counts each `givekit:ready` the page's forms send, from before any script runs. */
const countReady = (page: Page) =>
  page.addInitScript(() => {
    const counted = window as unknown as { __gkReady: number };
    counted.__gkReady = 0;
    document.addEventListener("givekit:ready", () => (counted.__gkReady += 1));
  });
const readyCount = (page: Page) =>
  page.evaluate(() => (window as unknown as { __gkReady: number }).__gkReady);

test.describe("bad input: the first step comes once, late if it must, never blank", () => {
  test("widget.js loaded twice: one loader, each file and the campaign asked once, one first step", async ({
    page,
    hostUrl,
    proxyServer,
  }) => {
    const asked: string[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(proxyServer.url))
        asked.push(shortName({ method: request.method(), url: request.url() }));
    });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await countReady(page);
    await page.goto(`${hostUrl}/snippet-twice.html`);
    const donate = page.locator("givekit-donate");
    await expect(donate.getByRole("radio", { name: "$50" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await readyCount(page)).toBe(1);
    await expect(donate.getByRole("heading", { name: "Step 1 of 3: Your gift" })).toHaveCount(1);
    // The page asked for widget.js twice (the browser may answer the second from its cache); the rest once.
    const rest = asked.filter((name) => name !== "/widget.js");
    expect(rest.filter((name, index) => rest.indexOf(name) !== index)).toEqual([]);
    expect(rest).toContain("/v1/campaigns/71777/HOPE");
    expect(errors).toEqual([]);
  });

  test("the campaign answers 3 s late: the form keeps its room meanwhile, then its first step comes, once", async ({
    page,
    hostUrl,
  }) => {
    let asked = 0;
    let answered = false;
    await page.route("**/v1/campaigns/71777/HOPE", async (route) => {
      asked += 1;
      await new Promise((resolve) => setTimeout(resolve, 3000));
      answered = true;
      await route.continue();
    });
    await countReady(page);
    await page.goto(`${hostUrl}/snippet.html`);
    const donate = page.locator("givekit-donate");
    // Before the answer: the element holds its place on the page and says nothing wrong.
    await page.waitForTimeout(1000);
    expect(answered).toBe(false);
    const room = await donate.boundingBox();
    expect(room?.height ?? 0).toBeGreaterThan(100);
    await expect(donate.getByText(/not available/)).toHaveCount(0);
    await expect(donate.getByRole("radio", { name: "$50" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(asked).toBe(1);
    expect(await readyCount(page)).toBe(1);
    await expect(donate.getByRole("alert")).toHaveCount(0);
  });

  test("the campaign answer fails (503): the polite note in the form's room, not a blank", async ({
    page,
    hostUrl,
  }) => {
    let asked = 0;
    await page.route("**/v1/campaigns/71777/HOPE", async (route) => {
      asked += 1;
      await route.fulfill({
        status: 503,
        contentType: "application/problem+json",
        body: JSON.stringify({ code: "upstream_unavailable", title: "Unavailable", status: 503 }),
      });
    });
    await page.goto(`${hostUrl}/snippet.html`);
    const donate = page.locator("givekit-donate");
    await expect(donate.getByText(/This form is not available right now/)).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(asked).toBeLessThanOrEqual(2);
  });
});

test("a second page view of the same campaign does not wait for its campaign: the browser has it", async ({
  page,
  hostUrl,
  proxyServer,
}) => {
  // What reached the proxy, by its own log: one line per request.
  const campaignAsks = () =>
    proxyServer.logs.filter((line) => line.includes('"/v1/campaigns/71777/HOPE"')).length;
  const donate = page.locator("givekit-donate");
  await page.goto(`${hostUrl}/snippet.html`);
  await expect(donate.getByRole("radio", { name: "$50" })).toBeVisible();
  const afterFirst = campaignAsks();
  expect(afterFirst).toBeGreaterThan(0);

  await page.goto(`${hostUrl}/snippet.html`);
  await expect(donate.getByRole("radio", { name: "$50" })).toBeVisible();
  expect(campaignAsks()).toBe(afterFirst);
});
