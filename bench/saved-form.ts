/**
 * A saved form against the same form written in attributes, side by side (issue 55): a donor's
 * first visit to each page in Chromium with slow 4G and a 4x slower CPU (BENCH_BROWSER_RUNS
 * visits each, 3 by default, each in a fresh context), the medians of the first step's time and
 * its waterfall's depth, what the proxy sent before it, and a whole donation's bytes on the wire
 * (page load to thank-you, headers included, bench/wire-donation.ts). The two pages ask the same:
 * $50, $100 and $250, $100 chosen, monthly first, the accent #0b5394.
 *
 * A part of `npm run bench` (BENCH_ONLY=forms); alone: `npx tsx bench/saved-form.ts` (after
 * `npm run build`).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../e2e/chromium";
import { SLOW_4G, visitDonatePage, type Visit } from "../e2e/waterfall";
import { givekit } from "../test/helpers/cli";
import { startProxy } from "../test/helpers/proxy";
import { DEMO, startSandbox } from "../test/helpers/sandbox";
import { wholeDonationOnTheWire } from "./wire-donation";
import { formTokenIn } from "../test/helpers/dashboard";

const DESIGN = { amounts: "50,100,250", "default-amount": "100", "default-frequency": "monthly" };
const ACCENT = "#0b5394";

function page(proxyUrl: string, element: string, style = "") {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Give</title>${style}<script src="${proxyUrl}/widget.js" async></script></head><body><main><h1>Year-end appeal</h1>${element}</main></body></html>`;
}

const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The bytes (encoded bodies) the proxy sent before the first step was ready. */
async function firstStepBytes(browserPage: Page, url: string, proxyOrigin: string): Promise<number> {
  const cdp = await browserPage.context().newCDPSession(browserPage);
  const bodies = new Map<string, number>();
  const headers = new Map<string, number>();
  cdp.on("Network.responseReceived", ({ requestId, response }) => {
    if (response.url.startsWith(proxyOrigin)) headers.set(requestId, response.encodedDataLength);
  });
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    if (headers.has(requestId)) bodies.set(requestId, encodedDataLength - headers.get(requestId)!);
  });
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await browserPage.goto(url);
  const donate = browserPage.locator("givekit-donate");
  await donate.getByRole("radio", { name: "$100", exact: true }).waitFor();
  await donate.getByRole("button", { name: "Next" }).waitFor();
  // What the first step needed has come: count it before the rest of the form is asked for.
  const total = [...bodies.values()].reduce((sum, bytes) => sum + bytes, 0);
  await cdp.detach();
  return total;
}

/** What a saved form's page measured against the same form in attributes'. */
export interface SavedFormFigures {
  firstStepMs: { attributes: number; saved: number };
}

export async function savedFormBench(
  log: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<SavedFormFigures> {
  const runs = Number(process.env.BENCH_BROWSER_RUNS ?? 3);
  const sandbox = await startSandbox();
  let proxyUrl = "";
  const pages = new Map<string, string>();
  const host = createServer((request, response) => {
    const body = pages.get(request.url ?? "");
    if (body)
      response
        .writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" })
        .end(body);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  const proxy = await startProxy({ upstreamUrl: sandbox.url, allowedOrigins: [hostUrl] });
  proxyUrl = proxy.url;
  const browser = await chromium.launch({ executablePath: (await findChromium()).path, args: CHROMIUM_ARGS });
  try {
    // The form saved as staff save it: signed in with an invite, then PUT.
    const invite = await givekit(["dashboard", "invite", "--name", "bench", "--for", "1h"], {
      UPSTREAM_BASE_URL: sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: proxy.dataDir,
      GIVEKIT_PUBLIC_URL: proxy.url,
    });
    const signedIn = await fetch(invite.out.split("\n")[0]!.replace(/^https?:\/\/[^/]+/, proxy.url));
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    // The designer page's form token, sent back with the save as its script does.
    const designer = await fetch(`${proxy.url}/dashboard/forms`, { headers: { Cookie: cookie } });
    const saved = await fetch(`${proxy.url}/dashboard/forms/year-end`, {
      method: "PUT",
      headers: {
        Cookie: cookie,
        "Content-Type": "application/json",
        "X-Givekit-Form": formTokenIn(await designer.text()),
      },
      body: JSON.stringify({
        design: {
          element: "donate",
          shortcode: "71777",
          keyword: "HOPE",
          attributes: DESIGN,
          theme: { accent: ACCENT },
        },
        after: 0,
      }),
    });
    if (saved.status !== 201)
      throw new Error(`the form was not saved: ${saved.status} ${await saved.text()}`);
    const attributes = Object.entries(DESIGN)
      .map(([name, value]) => ` ${name}="${value}"`)
      .join("");
    pages.set(
      "/attributes.html",
      page(
        proxyUrl,
        `<givekit-donate shortcode="71777" keyword="HOPE"${attributes}></givekit-donate>`,
        `<style>givekit-donate{--givekit-accent:${ACCENT}}</style>`,
      ),
    );
    pages.set(
      "/saved.html",
      page(proxyUrl, `<givekit-donate shortcode="71777" keyword="HOPE" form="year-end"></givekit-donate>`),
    );

    const rows: string[] = [];
    const firstStepMs = { attributes: 0, saved: 0 };
    for (const name of ["attributes", "saved"] as const) {
      const url = `${hostUrl}/${name}.html`;
      const visits: Visit[] = [];
      const bytes: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        for (const measure of ["visit", "bytes"] as const) {
          const context = await browser.newContext();
          try {
            if (measure === "visit")
              visits.push(await visitDonatePage(await context.newPage(), url, { cpu: 4, network: SLOW_4G }));
            else bytes.push(await firstStepBytes(await context.newPage(), url, proxy.url));
          } finally {
            await context.close();
          }
        }
      }
      const context = await browser.newContext();
      const wire = await wholeDonationOnTheWire(await context.newPage(), url, proxy.url);
      await context.close();
      firstStepMs[name] = median(visits.map((v) => v.firstStepMs));
      rows.push(
        `${name.padEnd(11)} first step ${Math.round(median(visits.map((v) => v.firstStepMs)))} ms (depth ${median(visits.map((v) => v.depth.firstStep))}, ${visits.map((v) => Math.round(v.firstStepMs)).join("/")}), ` +
          `before it ${(median(bytes) / 1024).toFixed(2)} KB of bodies; whole donation ${(wire.received / 1024).toFixed(2)} KB (bodies ${(wire.bodies / 1024).toFixed(2)} KB)`,
      );
    }
    log(
      `A saved form beside the same form in attributes (slow 4G, 4x CPU, medians of ${runs}):\n${rows.join("\n")}`,
    );
    return { firstStepMs };
  } finally {
    await browser.close();
    await proxy.close();
    await sandbox.close();
    host.closeAllConnections();
    host.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await savedFormBench();
