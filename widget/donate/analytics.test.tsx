import { cleanup, fireEvent } from "@testing-library/preact";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { giftContext } from "./base/analytics";
import { pushPurchase } from "./outcome/data-layer";
import { SUCCESS_REDIRECT_MS } from "./outcome/tell";
import {
  fillDonor,
  HOPE,
  HOPE_CONTEXT,
  problem,
  reach,
  renderDonate,
  stubProxy,
  success,
  useFakeCardFrame,
} from "../../test/helpers/donate-harness";

type DataLayerWindow = { dataLayer?: unknown[] };
const frame = useFakeCardFrame();

beforeEach(() => {
  delete (window as DataLayerWindow).dataLayer;
});

async function give(attributes: Record<string, string>, answers: Parameters<typeof stubProxy>[0]) {
  stubProxy(answers);
  const rendered = await renderDonate({ fields: "", ...attributes });
  const { widget } = rendered;
  fillDonor(widget, frame());
  fireEvent.click(await reach(widget, /^Donate /));
  return rendered;
}

const purchases = () => ((window as DataLayerWindow).dataLayer ?? []) as Record<string, unknown>[];

describe("numbers for the page's analytics, without cookies", () => {
  it("the page's utm_* values and the campaign ride on givekit:ready and givekit:donation", async () => {
    history.replaceState(null, "", "/appeal?utm_source=newsletter&utm_medium=email&utm_campaign=gt26&ref=x");
    const { widget, events } = await give(
      { layout: "single" },
      { donations: [success("25.00", "0.00", "T-31")] },
    );
    await widget.findByRole("heading", { name: "Thank you!" });
    const tags = { utm_source: "newsletter", utm_medium: "email", utm_campaign: "gt26" };
    expect(events[0]).toEqual({
      type: "givekit:ready",
      detail: { widget: "donate", ...HOPE_CONTEXT, frequency: "once", ...tags },
    });
    expect(events.filter((event) => event.type === "givekit:donation")).toEqual([
      {
        type: "givekit:donation",
        detail: {
          ...HOPE_CONTEXT,
          ...tags,
          status: "Success",
          amount: "25.00",
          frequency: "once",
          transaction_id: "T-31",
        },
      },
    ]);
  });

  it("with data-layer, a charged gift is one GA4 purchase with its figures", async () => {
    (window as DataLayerWindow).dataLayer = [{ event: "page_view" }];
    const { widget } = await give(
      { layout: "single", "data-layer": "" },
      { donations: [success("50.00", "0.00", "T-41")] },
    );
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(purchases()).toEqual([
      { event: "page_view" },
      {
        event: "purchase",
        ecommerce: {
          transaction_id: "T-41",
          value: 50,
          currency: "USD",
          items: [
            { item_id: "71777/HOPE", item_name: "71777/HOPE", item_category: "once", price: 50, quantity: 1 },
          ],
        },
      },
    ]);
  });

  it("a declined gift pushes nothing, and without data-layer nothing is pushed at all", async () => {
    const declined = await give(
      { layout: "single", "data-layer": "" },
      { donations: [problem(402, "card_declined")] },
    );
    await declined.widget.findByText(/declined/);
    expect(purchases()).toEqual([]);
    cleanup();
    const quiet = await give({ layout: "single" }, { donations: [success("25.00", "0.00", "T-51")] });
    await quiet.widget.findByRole("heading", { name: "Thank you!" });
    expect((window as DataLayerWindow).dataLayer).toBeUndefined();
  });

  it("a transaction is pushed once, however often it is told", () => {
    const layer: DataLayerWindow = {};
    const context = giftContext({ shortcode: "71777", keyword: "HOPE" }, "USD", "monthly", "");
    pushPurchase(context, "20.00", "T-61", layer);
    pushPurchase(context, "20.00", "T-61", layer);
    expect(layer.dataLayer).toHaveLength(1);
    expect(layer.dataLayer![0]).toMatchObject({
      ecommerce: { value: 20, items: [{ item_category: "monthly" }] },
    });
  });

  it("success-url on the page's origin: the thank-you shows, then the donor is taken there", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout"] });
    const next = new URL("/thank-you", location.href).href;
    const { widget } = await give(
      { layout: "single", "success-url": "/thank-you" },
      { donations: [success("25.00", "0.00", "T-71")] },
    );
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(assign).not.toHaveBeenCalled();
    vi.advanceTimersByTime(SUCCESS_REDIRECT_MS);
    expect(assign).toHaveBeenCalledExactlyOnceWith(next);
    vi.useRealTimers();
  });

  it("success-url on another origin is ignored with a [givekit] line; a decline goes nowhere", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout"] });
    const { widget } = await give(
      { layout: "single", "success-url": "https://elsewhere.example.com/thanks" },
      { donations: [success("25.00", "0.00", "T-81")] },
    );
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^\[givekit\] .*success-url must be on this page's origin or one the proxy allows \(https:\/\/elsewhere\.example\.com is neither\)/,
      ),
    );
    cleanup();
    const declined = await give(
      { layout: "single", "success-url": "/thank-you" },
      { donations: [problem(402, "card_declined")] },
    );
    await declined.widget.findByText(/declined/);
    vi.advanceTimersByTime(SUCCESS_REDIRECT_MS * 2);
    expect(assign).not.toHaveBeenCalled();
    vi.useRealTimers();
  });

  it("success-url on an origin the proxy allows (said with the campaign) is followed too", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout"] });
    const { widget } = await give(
      { layout: "single", "success-url": "https://www.hope.example.org/thanks" },
      {
        campaign: { status: 200, body: { ...HOPE, allowed_origins: ["https://www.hope.example.org"] } },
        donations: [success("25.00", "0.00", "T-91")],
      },
    );
    await widget.findByRole("heading", { name: "Thank you!" });
    vi.advanceTimersByTime(SUCCESS_REDIRECT_MS);
    expect(assign).toHaveBeenCalledExactlyOnceWith("https://www.hope.example.org/thanks");
    expect(warn).not.toHaveBeenCalled();
    vi.useRealTimers();
  });
});
