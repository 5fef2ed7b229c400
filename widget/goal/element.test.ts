// <givekit-goal>: the campaign's progress from the proxy, refreshed on a timer and after a gift.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { defineGoalElement } from "./element";
import { stubFetch } from "../shared/plain-test-helpers";

const PROXY = "https://give.example.org";
const progress = (raised: string, donors: number, goal: string | null = "25000.00") => ({
  raised,
  goal,
  donors,
  currency: "USD",
  updated_at: "2026-11-23T12:00:00.000Z",
});

function place(attributes: Record<string, string>) {
  const goal = document.createElement("givekit-goal");
  for (const [name, value] of Object.entries({ proxy: PROXY, ...attributes })) goal.setAttribute(name, value);
  document.body.append(goal);
  return goal;
}

const text = (goal: HTMLElement) => goal.shadowRoot!.textContent;
const bar = (goal: HTMLElement) => goal.shadowRoot!.querySelector('[role="progressbar"]');

beforeAll(() => defineGoalElement());
afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("<givekit-goal>", () => {
  it("shows what was raised of the goal, a bar with its accessible value, and the donors", async () => {
    const calls = stubFetch([200, progress("18240.00", 214)]);
    const goal = place({ shortcode: "71777", keyword: "HOPE" });
    await vi.waitFor(() => expect(text(goal)).toContain("$18,240 raised"));
    expect(text(goal)).toContain("of our $25,000 goal");
    expect(text(goal)).toContain("214 donors");
    expect(bar(goal)!.getAttribute("aria-valuenow")).toBe("72");
    expect(bar(goal)!.getAttribute("aria-valuetext")).toBe("$18,240 of $25,000, 72 percent");
    expect(calls[0]!.url).toBe(`${PROXY}/v1/campaigns/71777/HOPE/progress`);
  });

  it("without a goal, shows the amount and the donors and no bar", async () => {
    stubFetch([200, progress("7.00", 1, null)]);
    const goal = place({ shortcode: "41444", keyword: "MEALS" });
    await vi.waitFor(() => expect(text(goal)).toContain("$7 raised"));
    expect(text(goal)).toContain("1 donor");
    expect(bar(goal)).toBeNull();
  });

  it("moves at once after a gift made through a givekit form on the page, past the browser's cache", async () => {
    const calls = stubFetch([200, progress("100.00", 2)], [200, progress("125.00", 3)]);
    const goal = place({ shortcode: "71777", keyword: "HOPE" });
    await vi.waitFor(() => expect(text(goal)).toContain("$100 raised"));
    const shownBar = bar(goal);
    const form = document.createElement("div");
    document.body.append(form);
    // A Pending answer is not a gift yet.
    form.dispatchEvent(new CustomEvent("givekit:donation", { detail: { status: "Pending" }, bubbles: true }));
    expect(calls).toHaveLength(1);
    form.dispatchEvent(new CustomEvent("givekit:donation", { detail: { status: "Success" }, bubbles: true }));
    await vi.waitFor(() => expect(text(goal)).toContain("$125 raised"));
    expect(calls.map((call) => call.cache)).toEqual(["default", "no-cache"]);
    // The bar is updated where it stands, so it slides to the new figure instead of being redrawn.
    expect(bar(goal)).toBe(shownBar);
  });

  it("refreshes on its timer, keeps its figures while the proxy fails, and stops once removed", async () => {
    vi.useFakeTimers();
    const calls = stubFetch(
      [200, progress("100.00", 2)],
      [503, { code: "upstream_unavailable" }],
      [200, progress("150.00", 4)],
    );
    const goal = place({ shortcode: "71777", keyword: "HOPE", refresh: "30" });
    await vi.waitFor(() => expect(text(goal)).toContain("$100 raised"));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toHaveLength(2);
    expect(text(goal)).toContain("$100 raised");
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.waitFor(() => expect(text(goal)).toContain("$150 raised"));
    goal.remove();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(3);
  });

  it("with no figures at all (404, 503, no answer), says so politely", async () => {
    stubFetch([404, { code: "campaign_not_served" }]);
    const goal = place({ shortcode: "71777", keyword: "NOPE" });
    await vi.waitFor(() => expect(text(goal)).toBe("The campaign's progress is not available right now."));
    expect(goal.shadowRoot!.querySelector('[role="note"]')).not.toBeNull();
  });

  it.each([
    [{ shortcode: "71", keyword: "HOPE" }, '"shortcode" attribute'],
    [{ shortcode: "71777", keyword: "H" }, '"keyword" attribute'],
    [{ shortcode: "71777", keyword: "HOPE", refresh: "5" }, '"refresh" attribute'],
    [{ shortcode: "71777", keyword: "HOPE", proxy: "javascript:alert(1)" }, '"proxy" attribute'],
  ])(
    "a bad attribute (%o) is named in the console, a polite note shown, nothing asked",
    async (attributes, named) => {
      const calls = stubFetch([200, progress("1.00", 1)]);
      const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const goal = place(attributes);
      await vi.waitFor(() => expect(text(goal)).toBe("The campaign's progress is not available right now."));
      expect(errors.mock.calls.flat().join(" ")).toContain(`[givekit] <givekit-goal>: the ${named}`);
      expect(calls).toHaveLength(0);
    },
  );

  it("speaks Spanish", async () => {
    stubFetch([200, progress("18240.00", 214)]);
    const goal = place({ shortcode: "71777", keyword: "HOPE", locale: "es" });
    await vi.waitFor(() => expect(text(goal)).toContain("recaudados"));
    expect(text(goal)).toContain("214 donantes");
    expect(bar(goal)!.getAttribute("aria-label")).toBe("Avance hacia la meta");
  });
});
