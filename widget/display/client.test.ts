// The screen for the room: every figure from the live feed, the leaderboard included.
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Campaign, DisplaySettings } from "../../contract/api";
import { displayPage } from "../../proxy/campaign/display-page";
import { FakeSource, peer, stream, stubFetch } from "../shared/plain-test-helpers";

const campaign = { shortcode: "71777", keyword: "HOPE", peer_fundraising: true } as Campaign;
const display: DisplaySettings = {
  shortcode: "71777",
  keyword: "HOPE",
  donate_url: "https://shelter.example/give",
};
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** The leaderboard's rows as shown: each one's name and amount. */
const shown = () =>
  [...document.querySelectorAll('[data-part="leaders"] li')].map((item) =>
    [...item.children].map((node) => node.textContent),
  );

afterAll(() => vi.unstubAllGlobals());

describe("the display", () => {
  it("shows the leaderboard each live message carries, in its order, asking nothing else; says reconnecting when the stream drops", async () => {
    vi.stubGlobal("EventSource", FakeSource);
    const calls = stubFetch([500, {}]);
    const html = displayPage(campaign, display, {
      script: "/display.js",
      style: "/display.css",
    });
    // Its body only: this test is the script, and the stylesheet is not fetched.
    const page = new DOMParser().parseFromString(html.replace(/<head>[\s\S]*<\/head>/, ""), "text/html");
    document.body.replaceWith(document.importNode(page.body, true));
    await import("./client");
    const source = await stream("/v1/campaigns/71777/HOPE/live?of=teams");
    const leaders = ["Owls", "Larks", "Wrens", "Finches", "Jays", "Crows"].map((name, i) =>
      peer(String(i), name, `${(6 - i) * 100}.00`),
    );
    source.send({
      progress: { raised: "2100.00", goal: "5000.00", donors: 21, currency: "USD", updated_at: ago(2) },
      wall: [],
      stale: false,
      leaders,
    });
    await vi.waitFor(() =>
      expect(shown()).toEqual([
        ["Owls", "$600"],
        ["Larks", "$500"],
        ["Wrens", "$400"],
        ["Finches", "$300"],
        ["Jays", "$200"],
      ]),
    );
    source.drop();
    const status = document.querySelector<HTMLElement>('[data-part="status"]')!;
    expect(status.hidden).toBe(false);
    expect(status.textContent).toBe("Reconnecting… these figures are from 2 minutes ago");
    expect(shown()).toHaveLength(5);
    expect(calls).toEqual([]);
  });
});
