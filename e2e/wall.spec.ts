// Gala night in Chromium: form and texted gifts on the wall and the display, the leaderboard,
// the upstream dropped and back, and the screens checked for overflow and with axe.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { fromCents, toCents } from "../contract/money";
import { startRelay } from "../test/proxy/relay";
import { startProxy } from "../test/helpers/proxy";
import { startSandbox } from "../test/helpers/sandbox";
import { cardOf, donateOf, fillCardAtOnce, uniqueLastName } from "./donor-helpers";
import { textGift } from "./display-helpers";
import { expect, startHostServer, test, withServers } from "./fixtures";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
/** GIVEKIT_PROGRESS_CACHE_S for these tests: the interval a gift must reach the screens within. */
const INTERVAL_S = 2;
const ENV = {
  GIVEKIT_PROGRESS_CACHE_S: String(INTERVAL_S),
  GIVEKIT_PEERS_CACHE_S: "1",
  GIVEKIT_RATE_PAYMENT_TOKENS: "1000",
  GIVEKIT_RATE_DONATIONS: "1000",
};

async function giveThroughForm(
  page: Page,
  lastName: string,
  options: { anonymous?: boolean; wall: boolean },
) {
  const donate = donateOf(page);
  await expect(cardOf(page).getByLabel("Card number")).toBeVisible();
  await donate.getByRole("radio", { name: "$25" }).check();
  await donate.getByLabel("First name").fill("Maya");
  await donate.getByLabel("Last name").fill(lastName);
  await donate.getByLabel("E-mail").fill(`${lastName.toLowerCase()}@example.org`);
  if (options.wall) await donate.getByRole("checkbox", { name: "Show my gift on the pledge wall" }).check();
  if (options.anonymous) await donate.getByRole("checkbox", { name: "Make my gift anonymous" }).check();
  await fillCardAtOnce(cardOf(page));
  await donate.getByRole("button", { name: /^Donate / }).click();
  await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
}

/** Every box of the page (shadow roots included) inside the viewport: nothing cut off, nothing to scroll to. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const height = document.documentElement.clientHeight;
    const out: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const element of root.querySelectorAll("*")) {
        if (element.shadowRoot) walk(element.shadowRoot);
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        // Cut by an ancestor that hides its overflow (a list cut to what fits) is not past the edge.
        if (element.closest("section, ol") && box.top >= height) continue;
        if (
          box.left < -1 ||
          box.right > width + 1 ||
          (document.body.scrollHeight <= height && box.bottom > height + 1)
        )
          out.push(
            `${element.localName}.${element.className}: ${Math.round(box.left)}..${Math.round(box.right)}`,
          );
      }
    };
    walk(document);
    if (document.documentElement.scrollWidth > width)
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth}`);
    return out;
  });
}

async function axe(page: Page) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(" ")}`,
  );
}

test.describe("gala night", () => {
  test("form and texted gifts reach the wall and the display within the interval; totals are the sandbox's", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    await withServers(ENV, async ({ sandbox, proxy, host }) => {
      const named = uniqueLastName("Wall");
      const hidden = uniqueLastName("Anon");
      const off = uniqueLastName("Off");
      const page = await browser.newPage();
      const wall = page.locator("givekit-wall");
      for (const [lastName, options] of [
        [named, { wall: true }],
        [hidden, { wall: true, anonymous: true }],
        [off, { wall: false }],
      ] as const) {
        await page.goto(`${host.url}/wall.html`);
        await giveThroughForm(page, lastName, options);
        if (lastName === named) {
          // A gift through a form on the page: on its wall at once (well inside the interval).
          await expect(wall.getByText(`Maya ${named[0]}.`)).toBeVisible({ timeout: 5000 });
        }
      }
      await textGift(sandbox.url, { amount: "10.00", first_name: "Tomás", last_name: "Reyes" });
      await textGift(sandbox.url, { amount: "5.00", first_name: "Lena", last_name: "Park", anonymous: true });

      const screen = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await screen.goto(`${proxy.url}/display/71777/HOPE`);
      const rows = await sandbox.transactions({ keyword: "HOPE", status: "collected" });
      const raised = rows.reduce((sum, row) => sum + toCents(row.amount as string), 0);
      expect(rows).toHaveLength(5);
      // Within the interval (and one read's time): the display's total is the sandbox's report's.
      await expect(screen.locator('[data-part="raised"]')).toHaveText(
        `$${Number(fromCents(raised)).toLocaleString("en-US", { minimumFractionDigits: raised % 100 ? 2 : 0 })}`,
        { timeout: (INTERVAL_S + 5) * 1000 },
      );
      await expect(screen.locator('[data-part="donors"]')).toHaveText("5 donors");
      const shown = screen.locator('[data-part="wall"] .name');
      await expect(shown).toHaveText(["Anonymous", "Tomás R.", "Anonymous", "Maya W."]);
      const text = (await screen.locator("main").textContent()) ?? "";
      for (const secret of [hidden, off, "Lena", "Park", "@example.org", "2025550143"])
        expect(text).not.toContain(secret);
      await expect(screen.getByText("Text HOPE to 71777")).toBeVisible();
      await expect(screen.getByRole("img", { name: /^QR: / })).toBeVisible();

      // The display's leaderboard moves with the same read: a gift texted for Trail Mix tops it,
      // its sum the sandbox's own team total.
      await textGift(sandbox.url, {
        amount: "90.00",
        first_name: "Kai",
        last_name: "Moss",
        peer_fundraiser_team_id: "13",
      });
      const teams = await sandbox.peerTotals("teams");
      const leaders = screen.locator('[data-part="leaders"] li');
      await expect(leaders.first().locator(".name")).toHaveText("Trail Mix", {
        timeout: (INTERVAL_S + 5) * 1000,
      });
      await expect(leaders.first().locator(".amount")).toHaveText(
        `$${teams.get("13")!.replace(/\.00$/, "")}`,
      );
      expect(teams.get("13")).toBe("90.00");

      // The page's own wall catches up with the texted gifts too, and never names the anonymous donor.
      await page.reload();
      await expect(wall.locator('[part~="name"]')).toHaveText(
        ["Kai M.", "Anonymous", "Tomás R.", "Anonymous", "Maya W."],
        {
          timeout: (INTERVAL_S + 5) * 1000,
        },
      );
      await page.close();
      await screen.close();
    });
  });

  test("the leaderboard's order and sums are the sandbox's", async ({ browser }) => {
    await withServers(ENV, async ({ sandbox, host }) => {
      for (const [fundraiser, amount] of [
        ["103", "40.00"],
        ["101", "25.00"],
        ["104", "60.00"],
        ["101", "30.00"],
      ] as const)
        await textGift(sandbox.url, { amount, first_name: "Guest", peer_fundraiser_id: fundraiser });
      const rows = await sandbox.transactions({ keyword: "HOPE", status: "collected" });
      const sums = new Map<string, number>();
      for (const row of rows) {
        const id = row.peer_fundraiser_id as string;
        sums.set(id, (sums.get(id) ?? 0) + toCents(row.donation_amount as string));
      }
      const names: Record<string, string> = { "101": "Ana Ruiz", "103": "Chloe Park", "104": "Dev Patel" };
      const expected = [...sums].toSorted((a, b) => b[1] - a[1]);
      const page = await browser.newPage();
      await page.goto(`${host.url}/wall.html`);
      const board = page.locator("givekit-leaderboard");
      await expect(board.locator('[part~="name"]').first()).toHaveText(names[expected[0]![0]]!);
      await expect(board.locator('[part~="name"]')).toHaveText([
        ...expected.map(([id]) => names[id]!),
        "Ben Okafor",
      ]);
      await expect(board.locator('[part~="raised"]').first()).toHaveText(
        `$${fromCents(expected[0]![1]).replace(/\.00$/, "")} raised`,
      );
      const link = board.getByRole("link", { name: `Give to ${names[expected[0]![0]]}` });
      await expect(link).toHaveAttribute("href", `${host.url}/wall.html?fundraiser=${expected[0]![0]}`);
      await page.close();
    });
  });

  test("on a nonprofit's page the wall and the leaderboard move by the live stream, and say so when it drops", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const sandbox = await startSandbox();
    let pageProxyUrl = "";
    const host = await startHostServer(() => pageProxyUrl);
    const proxy = await startProxy({ upstreamUrl: sandbox.url, allowedOrigins: [host.url], env: ENV });
    // The page reaches the proxy through a relay, so the test can cut the page's connections.
    const relay = await startRelay(proxy.url);
    pageProxyUrl = relay.url;
    // Axe needs a page of a context of its own.
    const context = await browser.newContext();
    try {
      await textGift(sandbox.url, { amount: "20.00", first_name: "Ada", last_name: "Lee" });
      const page = await context.newPage();
      const polls: string[] = [];
      page.on("request", (request) => {
        if (/\/(wall|leaderboard)\?/.test(request.url())) polls.push(request.url());
      });
      await page.goto(`${host.url}/wall.html`);
      const wall = page.locator("givekit-wall");
      const board = page.locator("givekit-leaderboard");
      await expect(wall.locator('[part~="name"]')).toHaveText(["Ada L."]);
      await expect(board.locator('[part~="name"]').first()).toHaveText("Ana Ruiz");

      // A texted gift crediting Dev Patel: on the wall and at the top of the board within the
      // interval, pushed by the stream (neither element asks its route).
      const given = Date.now();
      await textGift(sandbox.url, {
        amount: "60.00",
        first_name: "Zed",
        last_name: "Quill",
        peer_fundraiser_id: "104",
      });
      await expect(wall.locator('[part~="name"]')).toHaveText(["Zed Q.", "Ada L."], {
        timeout: (INTERVAL_S + 5) * 1000,
      });
      await expect(board.locator('[part~="name"]').first()).toHaveText("Dev Patel");
      const totals = await sandbox.peerTotals("fundraisers");
      await expect(board.locator('[part~="raised"]').first()).toHaveText(
        `$${totals.get("104")!.replace(/\.00$/, "")} raised`,
      );
      expect(Date.now() - given).toBeLessThan((INTERVAL_S + 5) * 1000);
      expect(polls).toEqual([]);

      // The page loses the proxy: both keep what they show and say they are reconnecting.
      await relay.close();
      for (const element of [wall, board])
        await expect(element.locator('[part~="status"]')).toContainText("Reconnecting", { timeout: 10_000 });
      await expect(wall.locator('[part~="name"]')).toHaveText(["Zed Q.", "Ada L."]);
      await expect(board.locator('[part~="name"]').first()).toHaveText("Dev Patel");
      // Axe with the note shown.
      const results = await new AxeBuilder({ page })
        .include("givekit-wall")
        .include("givekit-leaderboard")
        .withTags(WCAG_TAGS)
        .analyze();
      expect(results.violations.map((violation) => violation.id)).toEqual([]);
      await textGift(sandbox.url, {
        amount: "80.00",
        first_name: "Bo",
        last_name: "Diaz",
        peer_fundraiser_id: "103",
      });

      // Back: the stream comes again, the note goes, and the gift made meanwhile is there.
      await relay.reopen();
      await expect(wall.locator('[part~="name"]').first()).toHaveText("Bo D.", { timeout: 40_000 });
      await expect(board.locator('[part~="name"]').first()).toHaveText("Chloe Park");
      for (const element of [wall, board]) await expect(element.locator('[part~="status"]')).toBeHidden();
    } finally {
      await context.close();
      await host.close();
      await relay.close().catch(() => undefined);
      await proxy.close();
      await sandbox.close();
    }
  });

  /** How long the upstream is away: a venue's uplink dropping for half a minute. */
  const UPSTREAM_AWAY_MS = 30_000;

  test("the upstream dropped for 30 s: the display keeps the last figures and says reconnecting, then catches up", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const sandbox = await startSandbox();
    const relay = await startRelay(sandbox.url);
    const proxy = await startProxy({
      upstreamUrl: relay.url,
      env: { ...ENV, UPSTREAM_CONNECT_TIMEOUT_MS: "500", UPSTREAM_TIMEOUT_MS: "1000" },
    });
    try {
      await textGift(sandbox.url, { amount: "20.00", first_name: "Ada", last_name: "Lee" });
      const screen = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await screen.goto(`${proxy.url}/display/71777/HOPE`);
      await expect(screen.locator('[data-part="raised"]')).toHaveText("$20");
      await relay.close();
      const cut = Date.now();
      await textGift(sandbox.url, { amount: "15.00", first_name: "Bo", last_name: "Diaz" });
      const status = screen.locator('[data-part="status"]');
      await expect(status).toContainText("Reconnecting", { timeout: (INTERVAL_S + 8) * 1000 });
      // The upstream stays away 30 s: all along, the last figures stay on the screen, never a blank one.
      while (Date.now() - cut < UPSTREAM_AWAY_MS) {
        await expect(screen.locator('[data-part="raised"]')).toHaveText("$20");
        await expect(screen.locator('[data-part="wall"] .name')).toHaveText(["Ada L."]);
        await expect(status).toContainText("Reconnecting");
        await screen.waitForTimeout(Math.min(5_000, Math.max(0, UPSTREAM_AWAY_MS - (Date.now() - cut))));
      }
      await relay.reopen();
      // After the proxy's back-off (10 s, doubling while the upstream stays away: 40 s at most after
      // 30 s away, proxy/campaign/progress.ts BACKOFF_MS), the figures catch up and the note goes.
      await expect(screen.locator('[data-part="raised"]')).toHaveText("$35", { timeout: 45_000 });
      await expect(status).toBeHidden();
      await screen.close();
    } finally {
      await proxy.close();
      await relay.close().catch(() => undefined);
      await sandbox.close();
    }
  });

  test("the display at 1920x1080 and 1280x720 and the wall on a 390 px phone: nothing overflows, axe is clean, hostile names are text", async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    await withServers(ENV, async ({ sandbox, proxy, host }) => {
      const markup = "<img src=x onerror=alert(1)>";
      await textGift(sandbox.url, { amount: "9999.99", first_name: `${markup}Zed`, last_name: "\u202eevil" });
      await textGift(sandbox.url, {
        amount: "12.00",
        first_name: "W".repeat(500),
        last_name: "X".repeat(500),
      });
      await textGift(sandbox.url, { amount: "7.00", first_name: "Rosa\u200f\u202a", last_name: "Núñez" });
      for (const viewport of [
        { width: 1920, height: 1080 },
        { width: 1280, height: 720 },
      ]) {
        // Axe needs a page of a context of its own.
        const context = await browser.newContext({ viewport });
        const screen = await context.newPage();
        await screen.goto(`${proxy.url}/display/71777/HOPE`);
        const names = screen.locator('[data-part="wall"] .name');
        await expect(names).toHaveCount(3);
        await expect(names.first()).toHaveText("Rosa N.");
        await expect(names.nth(1)).toHaveText(`${"W".repeat(40)} X.`);
        await expect(names.nth(2)).toHaveText(`${markup}Zed E.`);
        expect(await screen.locator("img").count()).toBe(0);
        expect(await overflowing(screen)).toEqual([]);
        expect(await axe(screen)).toEqual([]);
        await context.close();
      }
      {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const phone = await context.newPage();
        await phone.goto(`${host.url}/wall.html`);
        const wall = phone.locator("givekit-wall");
        await expect(wall.locator('[part~="name"]')).toHaveCount(3);
        const box = (await wall.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        for (const row of await wall.locator('[part~="entry"]').all()) {
          const rowBox = (await row.boundingBox())!;
          expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(390);
        }
        const board = phone.locator("givekit-leaderboard");
        await expect(board.locator('[part~="leader"]').first()).toBeVisible();
        for (const row of await board.locator('[part~="leader"]').all()) {
          const rowBox = (await row.boundingBox())!;
          expect(rowBox.x).toBeGreaterThanOrEqual(0);
          expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(390);
        }
        const results = await new AxeBuilder({ page: phone })
          .include("givekit-wall")
          .include("givekit-leaderboard")
          .withTags(WCAG_TAGS)
          .analyze();
        expect(results.violations.map((violation) => violation.id)).toEqual([]);
        await context.close();
      }
    });
  });

  test("the goal reached: the display says so, and with reduced motion nothing moves", async ({
    browser,
  }) => {
    await withServers(ENV, async ({ sandbox, proxy }) => {
      await textGift(sandbox.url, { amount: "24990.00", first_name: "Big", last_name: "Match" });
      const context = await browser.newContext({
        viewport: { width: 1280, height: 720 },
        reducedMotion: "reduce",
      });
      const screen = await context.newPage();
      await screen.goto(`${proxy.url}/display/71777/HOPE`);
      await expect(screen.locator('[data-part="raised"]')).toHaveText("$24,990");
      await expect(screen.getByRole("progressbar", { name: "Progress toward the goal" })).toHaveAttribute(
        "aria-valuenow",
        "99",
      );
      await expect(screen.getByText("Goal reached! Thank you!")).toBeHidden();
      await textGift(sandbox.url, { amount: "10.00", first_name: "Last", last_name: "Step" });
      await expect(screen.getByText("Goal reached! Thank you!")).toBeVisible({
        timeout: (INTERVAL_S + 5) * 1000,
      });
      await expect(screen.locator('[data-part="raised"]')).toHaveText("$25,000");
      expect(await screen.evaluate(() => document.getAnimations().length)).toBe(0);
      expect(await overflowing(screen)).toEqual([]);
      await context.close();
    });
  });

  test("a campaign without a display: 404 problem+json", async ({ proxyServer }) => {
    for (const path of ["/display/41444/MEALS", "/display/71777/NOPE"]) {
      const response = await fetch(`${proxyServer.url}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
  });
});
