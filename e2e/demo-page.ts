/** The demo campaign page (dist/demo/index.html) as the browser tests open it. */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page, Route } from "@playwright/test";

/** The demo campaign page as `npm run build` leaves it for `npm start` to serve. */
export const DEMO_DIR = fileURLToPath(new URL("../dist/demo/", import.meta.url));
const PLACEHOLDER = "__GIVEKIT_PROXY__";

/**
 * Writes the built demo page, with the proxy's URL in, into a document of the host page server's
 * origin (the one the proxy allows), as the demo server does: Chromium would not let a page made
 * up by the test reach loopback. `search` is the address's query the page keeps ("?utm_source=…").
 */
export async function writeDemo(page: Page, hostUrl: string, proxyUrl: string, search = "") {
  if (!existsSync(`${DEMO_DIR}index.html`))
    throw new Error("dist/demo is missing: run `npm run build` first.");
  const html = readFileSync(`${DEMO_DIR}index.html`, "utf8").replaceAll(PLACEHOLDER, proxyUrl);
  // The built page links its script from the root ("/assets/…").
  await page.route(`${hostUrl}/assets/**`, async (route: Route) => {
    const path = new URL(route.request().url()).pathname.slice(1);
    if (path.includes("..") || !existsSync(DEMO_DIR + path)) return route.fulfill({ status: 404 });
    return route.fulfill({
      status: 200,
      contentType: "text/javascript",
      body: readFileSync(DEMO_DIR + path, "utf8"),
    });
  });
  await page.goto(`${hostUrl}/optin-demo-host.html${search}`);
  await page.setContent(html);
}
