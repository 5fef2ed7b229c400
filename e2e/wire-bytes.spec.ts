// What a donor's phone downloads from the proxy for a donate page in English, as Chromium's own
// network layer counts it: compressed bodies and the response headers, until the form works.
import type { CDPSession, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const KB = 1024;
/** README's target for a donate page in English until its form works, on the wire (issue 22: missed). */
const UNTIL_IT_WORKS = 20 * KB;
/**
 * Today's figure (25.5 KB, 2026-11-26: cover-fee, the monthly invitation and dedications added
 * 1.6 KB) and a little room: past this is a regression (scripts/size.ts guards the same way, and
 * says why it moved).
 */
const GUARD = 26 * KB;

/** What the form needs before it works: the loader, the donate chunk, its English words, the campaign. */
const NEEDED_FIRST = [
  /^\/widget\.js$/,
  /^\/assets\/donate(?:-en)?-[\w-]{8}\.js$/,
  /^\/v1\/campaigns\/\d+\/\w+$/,
];

interface Transfer {
  path: string;
  /** Network.loadingFinished's encodedDataLength: the response's headers and body as they came. */
  wire: number;
  encoding: string;
}

/** Every finished response from `origin`, by its path, with the bytes it took on the wire. */
async function recordTransfers(page: Page, origin: string): Promise<Transfer[]> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const pending = new Map<string, { path: string; encoding: string }>();
  const finished: Transfer[] = [];
  cdp.on("Network.requestWillBeSent", ({ requestId, request }) => {
    if (request.url.startsWith(origin))
      pending.set(requestId, { path: new URL(request.url).pathname, encoding: "identity" });
  });
  cdp.on("Network.responseReceived", ({ requestId, response }) => {
    const transfer = pending.get(requestId);
    const encoding = Object.entries(response.headers).find(
      ([name]) => name.toLowerCase() === "content-encoding",
    );
    if (transfer && encoding) transfer.encoding = String(encoding[1]);
  });
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    const transfer = pending.get(requestId);
    if (transfer) finished.push({ ...transfer, wire: encodedDataLength });
  });
  await cdp.send("Network.enable");
  // A first visit: nothing from the cache.
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  return finished;
}

const sum = (transfers: Transfer[]) => transfers.reduce((total, { wire }) => total + wire, 0);
const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} KB`;

test("a donate page in English works after at most its guard from the proxy, on the wire (target 20 KB)", async ({
  page,
  hostUrl,
  proxyServer,
}) => {
  const transfers = await recordTransfers(page, proxyServer.url);
  await page.goto(`${hostUrl}/donate.html`);
  const donate = page.locator("givekit-donate");
  await donate.getByRole("radio", { name: "$50" }).check();
  // It works: its first step's button (Next in steps, Donate on one page) is there to press.
  await expect(donate.getByRole("button", { name: /^(Next|Donate \$)/ })).toBeEnabled();
  // Then what it loads meanwhile (the card frame, the request check), for the report.
  await page.waitForLoadState("networkidle");

  const first = transfers.filter(({ path }) => NEEDED_FIRST.some((pattern) => pattern.test(path)));
  const rest = transfers.filter((transfer) => !first.includes(transfer));
  const rows = (list: Transfer[]) =>
    list
      .map(({ path, wire, encoding }) => `  ${kb(wire).padStart(9)}  ${encoding.padEnd(8)}  ${path}`)
      .join("\n");
  process.stdout.write(
    `A donate page in English, from the proxy, on the wire (headers included):\n` +
      `until its form works: ${kb(sum(first))}, target ${kb(UNTIL_IT_WORKS)}${sum(first) > UNTIL_IT_WORKS ? " (missed)" : ""}, guard ${kb(GUARD)}\n${rows(first)}\n` +
      `meanwhile: ${kb(sum(rest))} (all: ${kb(sum(transfers))})\n${rows(rest)}\n`,
  );

  expect(first.map(({ path }) => path.replace(/-[\w-]{8}\.js$/, ".js")).toSorted()).toEqual([
    "/assets/donate-en.js",
    "/assets/donate.js",
    "/v1/campaigns/71777/HOPE",
    "/widget.js",
  ]);
  // Every widget file came as the build compressed it: Brotli, for a current browser.
  const files = transfers.filter((transfer) => !transfer.path.startsWith("/v1/"));
  for (const file of files) expect(file.encoding, file.path).toBe("br");
  expect(sum(first)).toBeLessThanOrEqual(GUARD);
});
