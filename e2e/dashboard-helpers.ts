/** The staff dashboard as the browser tests sign in to it and read it. */
import type { Page } from "@playwright/test";
import { givekit } from "../test/helpers/cli";
import { DEMO } from "../test/helpers/sandbox";
import { expect } from "./fixtures";

/** A sign-in link, as the operator's `givekit dashboard invite` prints it (`env`: the proxy's store, when not its data directory's). */
export async function inviteLink(
  proxy: { url: string; dataDir: string },
  sandboxUrl: string,
  env: Record<string, string> = {},
): Promise<string> {
  const { code, out } = await givekit(["dashboard", "invite", "--name", "events desk", "--for", "1h"], {
    UPSTREAM_BASE_URL: sandboxUrl,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    GIVEKIT_DATA_DIR: proxy.dataDir,
    GIVEKIT_PUBLIC_URL: proxy.url,
    ...env,
  });
  expect(code).toBe(0);
  return out.split("\n")[0]!;
}

/** The rows of the table under a heading, each as "cell | cell | …". */
export async function rowsUnder(page: Page, heading: string): Promise<string[]> {
  return page
    .locator(`section:has(h2:text-is('${heading}')) tbody tr`)
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent).join(" | ")));
}

/** The column heads of the table under a heading. */
export async function headsUnder(page: Page, heading: string): Promise<string[]> {
  return page
    .locator(`section:has(h2:text-is('${heading}')) thead th`)
    .evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ""));
}

/** How far the table under a heading must be scrolled sideways to be read whole (0: it fits). */
export async function sidewaysScroll(page: Page, heading: string): Promise<number> {
  return page
    .locator(`section:has(h2:text-is('${heading}')) .scroll`)
    .evaluate((region) => region.scrollWidth - region.clientWidth);
}
