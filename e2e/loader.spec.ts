// widget.js is a loader: each page loads the code of the elements it shows and the messages of
// its language, and nothing else (counted from the requests the page makes to the proxy).
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { optinOf } from "./optin-helpers";

/**
 * The widget file a URL names: "widget.js", a chunk ("donate", "all" …), its catalog
 * ("donate-en" …), or the rest of a donate form and its words, loaded while the donor chooses
 * an amount ("later", "donate-later-en"), with the extras its attributes turn on ("CountryField" …).
 */
function widgetFile(proxyUrl: string, url: string): string | undefined {
  if (!url.startsWith(proxyUrl)) return undefined;
  const path = new URL(url).pathname;
  if (path === "/widget.js") return "widget.js";
  // Rolldown's hashes are eight characters of [A-Za-z0-9_-].
  const chunk =
    /^\/assets\/((?:donate|optin|goal|all|later|CountryField|phone-rule|dedication|MonthlyPrompt|data-layer)(?:-later)?(?:-en|-es)?)-[\w-]{8}\.js$/.exec(
      path,
    );
  return chunk?.[1];
}

/** The proxy's widget files a page asked for, in the order asked. */
function recordChunks(page: Page, proxyUrl: string): string[] {
  const asked: string[] = [];
  page.on("request", (request) => {
    const file = widgetFile(proxyUrl, request.url());
    if (file) asked.push(file);
  });
  return asked;
}

/** The widget files a page asks for until `shown` is visible and the network is quiet, sorted. */
async function chunksOf(page: Page, proxyUrl: string, url: string, ...shown: Locator[]): Promise<string[]> {
  const asked = recordChunks(page, proxyUrl);
  await page.goto(url);
  for (const locator of shown) await expect(locator).toBeVisible();
  await page.waitForLoadState("networkidle");
  return asked.toSorted();
}

test("a page with only the opt-in, in English, loads no donate code and no Spanish", async ({
  page,
  hostUrl,
  proxyServer,
}) => {
  const subscribe = optinOf(page).getByRole("button", { name: "Subscribe" });
  expect(await chunksOf(page, proxyServer.url, `${hostUrl}/optin.html`, subscribe)).toEqual([
    "optin",
    "optin-en",
    "widget.js",
  ]);
});

test("a Spanish page loads the Spanish messages and not the English ones", async ({
  page,
  hostUrl,
  proxyServer,
}) => {
  const subscribe = optinOf(page).getByRole("button", { name: "Suscribirme" });
  expect(await chunksOf(page, proxyServer.url, `${hostUrl}/optin-es.html`, subscribe)).toEqual([
    "optin",
    "optin-es",
    "widget.js",
  ]);
});

test("a page with both forms loads them in one chunk", async ({ page, hostUrl, proxyServer }) => {
  const asked = await chunksOf(
    page,
    proxyServer.url,
    `${hostUrl}/embed-script.html`,
    optinOf(page).getByRole("button", { name: "Subscribe" }),
    page.locator("givekit-donate").getByRole("button", { name: /^Donate/ }),
  );
  // The `all` catalog is whole: the later words come as a chunk it imports, and no other.
  expect(asked).toEqual([
    "CountryField",
    "all",
    "all-en",
    "donate-later-en",
    "later",
    "phone-rule",
    "widget.js",
  ]);
});

test("a form the page adds later is loaded then, and works", async ({ page, hostUrl, proxyServer }) => {
  const asked = recordChunks(page, proxyServer.url);
  await page.goto(`${hostUrl}/loader-later.html`);
  await page.waitForLoadState("networkidle");
  expect(asked).toEqual(["widget.js"]);
  const donate = page.locator("givekit-donate");
  await expect(donate.getByRole("button", { name: /^Donate/ })).toBeVisible();
  await expect(donate.getByLabel("First name")).toBeVisible();
  await expect
    .poll(() => asked.toSorted())
    .toEqual(["CountryField", "donate", "donate-en", "donate-later-en", "later", "phone-rule", "widget.js"]);
});

test("a donate form fetches only the extras its attributes turn on: none for a plain one", async ({
  page,
  hostUrl,
  proxyServer,
}) => {
  const next = page.locator("givekit-donate").getByRole("button", { name: "Next" });
  expect(await chunksOf(page, proxyServer.url, `${hostUrl}/snippet.html`, next)).toEqual([
    "donate",
    "donate-en",
    "donate-later-en",
    "later",
    "widget.js",
  ]);
});

test("an element's messages are asked for beside its code, not after it", async ({
  page,
  hostUrl,
  proxyServer,
}) => {
  const events: string[] = [];
  page.on("request", (request) => {
    const file = widgetFile(proxyServer.url, request.url());
    if (file) events.push(`asked ${file}`);
  });
  page.on("response", (response) => {
    const file = widgetFile(proxyServer.url, response.url());
    if (file) events.push(`got ${file}`);
  });
  await page.goto(`${hostUrl}/optin.html`);
  await expect(optinOf(page).getByRole("button", { name: "Subscribe" })).toBeVisible();
  // Both requests left before the chunk came back: one round trip for the two.
  expect(events.indexOf("asked optin-en")).toBeGreaterThan(-1);
  expect(events.indexOf("asked optin-en")).toBeLessThan(events.indexOf("got optin"));
});

test("chunks are cached for good and may be loaded from any origin; widget.js revalidated", async ({
  proxyServer,
}) => {
  const loader = await fetch(`${proxyServer.url}/widget.js`);
  expect(loader.headers.get("cache-control")).toBe("no-cache");
  // widget.js names each chunk by the chunks' version (assets/donate-VERSION.js).
  const version = /\bversion:\s*[`"']([\w-]+)[`"']/.exec(await loader.text());
  expect(version).not.toBeNull();
  const chunk = await fetch(`${proxyServer.url}/assets/donate-${version![1]}.js`);
  expect(chunk.status).toBe(200);
  expect(chunk.headers.get("cache-control")).toBe("max-age=31536000, immutable");
  expect(chunk.headers.get("access-control-allow-origin")).toBe("*");
  expect(chunk.headers.get("content-type")).toMatch(/javascript/);
  expect((await fetch(`${proxyServer.url}/assets/donate-00000000.js`)).status).toBe(404);
});
