/**
 * A donor meeting givekit's own challenge in the card frame, as the browser tests and
 * `npm run bench` (its challenge part) measure it: defence mode tripped for the campaign by a
 * tester's tokenization, then a donor gives; the frame solves the proof of work between showing
 * "One moment" and "Checking your card", and the time between is read in the frame itself.
 */
import type { Page } from "@playwright/test";
import { cardOf, chooseAndFillDonor, donateOf, fillCardAtOnce, openGivingPage, TOTAL } from "./donor-helpers";
import type { Servers } from "./fixtures";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

/** Defence mode for a campaign after its first card tokenization of a minute: forced by a signal. */
export const TRIP_ON_FIRST = {
  GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN: "1",
  GIVEKIT_RATE_PAYMENT_TOKENS: "1000",
};

/** A tester's tokenization for HOPE, past the cheap filters: it puts the campaign in defence mode. */
export async function tripDefence(proxyUrl: string): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`${proxyUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const session = (await (
    await post("/v1/form-sessions", { shortcode: "71777", keyword: "HOPE" })
  ).json()) as {
    form_session: string;
  };
  await new Promise((resolve) => setTimeout(resolve, 1600));
  const bot = await post("/v1/payment-tokens", {
    card_number: "4000000000000002",
    cvv: "317",
    expiration_date: FUTURE_EXPIRY,
    website: "",
    form_session: session.form_session,
    shortcode: "71777",
    keyword: "HOPE",
  });
  if (bot.status !== 201) throw new Error(`the tester's tokenization was answered ${bot.status}`);
}

/**
 * Opens the giving page, fills the form, presses Donate and resolves with how long the frame
 * took to solve the challenge (ms, in the frame's own clock), once the thanks show. `cpuRate`
 * slows the page's CPU as a phone's (Chromium's CPU throttling, 4: a mid-range phone).
 */
export async function giveThroughChallenge(
  page: Page,
  servers: Servers,
  lastName: string,
  cpuRate = 1,
): Promise<number> {
  await openGivingPage(page, servers.host.url);
  await chooseAndFillDonor(page, lastName);
  const card = cardOf(page);
  await fillCardAtOnce(card);
  const frame = await (await donateOf(page).locator("iframe").elementHandle())?.contentFrame();
  if (!frame) throw new Error("no card frame");
  // The status line's changes, timed in the frame.
  await frame.evaluate(() => {
    const marks: Record<string, number> = {};
    (window as unknown as { solveMarks: Record<string, number> }).solveMarks = marks;
    const status = document.querySelector(".challenge output")!;
    new MutationObserver(() => {
      const text = status.textContent ?? "";
      if (text.startsWith("One moment")) marks.solving ??= performance.now();
      else if (text.startsWith("Thank you")) marks.checking ??= performance.now();
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
  const cdp = cpuRate > 1 ? await page.context().newCDPSession(page) : null;
  await cdp?.send("Emulation.setCPUThrottlingRate", { rate: cpuRate });
  let marks: Record<string, number>;
  try {
    await donateOf(page)
      .getByRole("button", { name: `Donate $${TOTAL}` })
      .click();
    // Read in the frame before the thanks take its place.
    const handle = await frame.waitForFunction(
      () => {
        const seen = (window as unknown as { solveMarks: Record<string, number> }).solveMarks;
        return seen.checking === undefined ? null : seen;
      },
      undefined,
      { timeout: 60_000 },
    );
    marks = (await handle.jsonValue()) as Record<string, number>;
    await donateOf(page).getByRole("heading", { name: "Thank you!" }).waitFor({ timeout: 60_000 });
  } finally {
    await cdp?.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  }
  if (marks.solving === undefined || marks.checking === undefined)
    throw new Error("the frame never showed the challenge being solved");
  return marks.checking - marks.solving;
}
