/**
 * A donor's first visit to a donate page, as Chromium's own network layer and the page see it:
 * when the form's first step is ready, when the card frame's number field can take input, and
 * the waterfall's depth (how many requests in a chain, each sent only after the answer to the one
 * before had started to come). Shared by e2e/waterfall.spec.ts and bench/browser.ts.
 *
 * Throttling is Chromium's own, over the DevTools protocol: Network.emulateNetworkConditions adds
 * its latency to every request and caps the bandwidth; Emulation.setCPUThrottlingRate slows the
 * page's renderer (and the card frame's, which shares it while the page and the proxy are one
 * site, as 127.0.0.1 on two ports is). Chromium does not delay a frame's own navigation so (the
 * card frame's page came in 19 ms at 150 ms a round trip): that request is held for the round
 * trip here, by Playwright's routing, before it goes.
 *
 * @example
 * const visit = await visitDonatePage(page, `${hostUrl}/snippet.html`, { cpu: 4, network: SLOW_4G });
 * visit.firstStepMs; // 1650
 * visit.depth.card;  // 5
 */
import type { CDPSession, Page } from "@playwright/test";

/** The network of the issue's phone: 400 ms round trip, 400 kbit/s (down, and up here too). */
export const SLOW_4G: NetworkProfile = { latency: 400, kbps: 400 };

export interface NetworkProfile {
  /** Added to every request's round trip, in ms. */
  latency: number;
  /** Bandwidth each way, in kbit/s. */
  kbps: number;
}

export interface Throttle {
  /** CPU slow-down factor (1: none). */
  cpu?: number;
  network?: NetworkProfile | null;
  /** The campaign's answer held this long before it goes, in ms (an upstream slow to answer). */
  campaignDelayMs?: number;
}

export interface RequestRecord {
  url: string;
  method: string;
  /** ms since the page's navigation started, when the request was sent. */
  sent: number;
  /** ms since navigation started, when its answer's first bytes (the status line) came; null if none. */
  answered: number | null;
  /** Its place in the chain: 1 for a request that waited for no answer, else 1 + the deepest answer it came after. */
  depth: number;
  /** Sent by the card frame's document (its page, its assets, its own requests), not the page's. */
  byCardFrame: boolean;
}

export interface Visit {
  /** ms from navigation to the frame after `givekit:ready`: the first step drawn, its campaign known. */
  firstStepMs: number;
  /** ms from navigation until the card frame's number field is there, enabled and styled. */
  cardReadyMs: number;
  /** Every request of the page and its same-process frames, in the order sent, until `settle` after both. */
  requests: RequestRecord[];
  depth: {
    /** The deepest of the page's own requests answered before the first step was ready (the card frame's are its own). */
    firstStep: number;
    /** The deepest request answered before the card field could take input. */
    card: number;
  };
}

/**
 * What the page and the card frame note for the measure, before any of their scripts run (never
 * in the served HTML): the page, the frame after `givekit:ready` (the first step drawn); the card
 * frame, the moment its number field is there, enabled, writable and styled, the form's look
 * taken (widget/frame/start.ts marks it `data-themed`) (a step not shown
 * yet hides it: it is ready for when it shows). Plain text, as the page runs it: a function here
 * would be compiled by whichever loader runs this file (tsx adds helpers the page lacks).
 */
const INSTRUMENT = `(() => {
  const stamp = () => performance.timeOrigin + performance.now();
  window.__gkOrigin = performance.timeOrigin;
  if (location.pathname === "/frame/card") {
    const check = () => {
      const input = document.querySelector('input[autocomplete="cc-number"]');
      const themed = document.documentElement.hasAttribute("data-themed");
      if (!input || input.disabled || input.readOnly || document.styleSheets.length === 0 || !themed) return;
      window.__gkCardReady ??= stamp();
      observer.disconnect();
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, attributes: true });
    addEventListener("load", check);
  } else {
    document.addEventListener(
      "givekit:ready",
      () => requestAnimationFrame(() => (window.__gkFirstStep ??= stamp())),
      { once: true },
    );
  }
})();`;

/** Records every request the page's target sends, with when it was sent and answered (wall-clock ms). */
async function recordRequests(cdp: CDPSession) {
  const byId = new Map<
    string,
    { url: string; method: string; sent: number; answered: number | null; offset: number; frameId?: string }
  >();
  cdp.on("Network.requestWillBeSent", ({ requestId, request, wallTime, timestamp, frameId }) => {
    if (!/^https?:/.test(request.url) || byId.has(requestId)) return;
    byId.set(requestId, {
      url: request.url,
      method: request.method,
      frameId,
      sent: wallTime * 1000,
      answered: null,
      // The monotonic clock of the later events, to the wall clock.
      offset: wallTime * 1000 - timestamp * 1000,
    });
  });
  cdp.on("Network.responseReceived", ({ requestId, timestamp }) => {
    const request = byId.get(requestId);
    if (request) request.answered ??= timestamp * 1000 + request.offset;
  });
  await cdp.send("Network.enable");
  return byId;
}

/** Each request's depth: 1 + the deepest request whose answer had started to come before it was sent. */
export function chainDepths<T extends Omit<RequestRecord, "depth">>(
  requests: readonly T[],
): (T & { depth: number })[] {
  const sorted = requests.toSorted((a, b) => a.sent - b.sent);
  const done: (T & { depth: number })[] = [];
  for (const request of sorted) {
    const before = done.filter(({ answered }) => answered !== null && answered <= request.sent);
    done.push({ ...request, depth: 1 + Math.max(0, ...before.map(({ depth }) => depth)) });
  }
  return done;
}

/** The deepest of `requests` whose answer had started to come by `moment`: what it could have waited for. */
export const depthBefore = (requests: readonly RequestRecord[], moment: number) =>
  Math.max(
    0,
    ...requests.filter(({ answered }) => answered !== null && answered <= moment).map(({ depth }) => depth),
  );

/**
 * Opens `url` in `page` (a fresh context: nothing cached) under `throttle`, and measures the
 * visit. `settle` ms after both marks, the requests still coming are counted too (the form
 * session, the extras), for the "fetched once" check.
 */
export async function visitDonatePage(
  page: Page,
  url: string,
  throttle: Throttle = {},
  settle = 300,
): Promise<Visit> {
  const cdp = await page.context().newCDPSession(page);
  const byId = await recordRequests(cdp);
  if (throttle.network) {
    const { latency } = throttle.network;
    await page.route(/\/frame\/card\b/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, latency));
      await route.continue();
    });
    const bytesPerSecond = (throttle.network.kbps * 1000) / 8;
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: throttle.network.latency,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
  }
  if (throttle.campaignDelayMs) {
    const delay = throttle.campaignDelayMs;
    await page.route(/\/v1\/campaigns\/\d+\/\w+$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      await route.continue();
    });
  }
  if (throttle.cpu && throttle.cpu > 1)
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle.cpu });
  await page.addInitScript({ content: INSTRUMENT });

  await page.goto(url);
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const origin = Number(await page.evaluate("window.__gkOrigin"));
  const firstStep = await (
    await page.waitForFunction(() => (window as unknown as { __gkFirstStep?: number }).__gkFirstStep, null, {
      timeout: 30_000,
      polling: 50,
    })
  ).jsonValue();
  const frame = await (
    await page.waitForSelector("givekit-donate >> iframe", { state: "attached" })
  ).contentFrame();
  if (!frame) throw new Error("The card frame has no document.");
  const cardReady = await // Polled by time: a hidden frame draws no animation frames.
  // A function, not text: the frame's policy allows no eval.
  (
    await frame.waitForFunction(() => (window as unknown as { __gkCardReady?: number }).__gkCardReady, null, {
      timeout: 30_000,
      polling: 50,
    })
  ).jsonValue();
  await page.waitForTimeout(settle);
  await cdp.detach();

  const requests = chainDepths(
    [...byId.values()]
      // The browser's own ask for an icon is no part of the page.
      .filter(({ url: address }) => new URL(address).pathname !== "/favicon.ico")
      .map(({ url: address, method, sent, answered, frameId }) => ({
        url: address,
        method,
        sent: sent - origin,
        answered: answered === null ? null : answered - origin,
        byCardFrame: frameId !== frameTree.frame.id,
      })),
  );
  const firstStepMs = Number(firstStep) - origin;
  const cardReadyMs = Number(cardReady) - origin;
  return {
    firstStepMs,
    cardReadyMs,
    requests,
    depth: {
      firstStep: depthBefore(
        requests.filter(({ byCardFrame }) => !byCardFrame),
        firstStepMs,
      ),
      card: depthBefore(requests, cardReadyMs),
    },
  };
}

/** A request's short name for a table: its path, hashes dropped ("/assets/donate.js"). */
export const shortName = ({ method, url }: Pick<RequestRecord, "method" | "url">) =>
  `${method === "GET" ? "" : `${method} `}${new URL(url).pathname.replace(/-[\w-]{8}(\.\w+)$/, "$1")}`;
