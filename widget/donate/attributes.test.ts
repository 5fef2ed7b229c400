import { describe, expect, it } from "vitest";
import { readDonateAttributes } from "./attributes";

const read = (attributes: Record<string, string>) => readDonateAttributes((name) => attributes[name] ?? null);

describe("<givekit-donate>'s attributes", () => {
  it("have defaults for everything but the campaign", () => {
    const result = read({ proxy: "https://give.example.org/", shortcode: "71777", keyword: "hope" });
    expect(result).toEqual({
      ok: true,
      props: {
        proxyUrl: "https://give.example.org",
        target: { shortcode: "71777", keyword: "HOPE" },
        formId: null,
        amounts: [2500, 5000, 10000, 25000],
        defaultAmount: 2500,
        frequencies: ["once", "monthly"],
        defaultFrequency: "once",
        fundraiser: null,
        team: null,
        locale: "en",
        heading: null,
        programName: null,
        termsUrl: null,
        privacyUrl: null,
        fields: {},
        layout: "steps",
        dataLayer: false,
        successUrl: null,
      },
    });
  });

  it("read every attribute", () => {
    const result = read({
      proxy: "https://give.example.org",
      "event-id": "2026-hope-walk",
      "event-type": "peer_campaign",
      "form-id": "form-hope-gala",
      amounts: " 10, 20.50 ,40",
      "default-amount": "35",
      frequencies: "monthly,once",
      fundraiser: "101",
      team: "11",
      locale: "es-MX",
      heading: "Walk with us",
      "program-name": "Hope Alerts",
      "terms-url": "/sms-terms",
      "privacy-url": "https://hope.example.org/privacy",
    });
    expect(result.ok && result.props).toMatchObject({
      target: { event_id: "2026-hope-walk", event_type: "peer_campaign" },
      formId: "form-hope-gala",
      amounts: [1000, 2050, 4000],
      defaultAmount: 3500,
      frequencies: ["monthly", "once"],
      defaultFrequency: "monthly",
      fundraiser: "101",
      team: "11",
      locale: "es",
      heading: "Walk with us",
      programName: "Hope Alerts",
      termsUrl: `${location.origin}/sms-terms`,
      privacyUrl: "https://hope.example.org/privacy",
    });
  });

  it.each([
    [{ amounts: "25,0" }, '"amounts"'],
    [{ amounts: "1,2,3,4,5,6,7,8,9" }, '"amounts"'],
    [{ "default-amount": "1e3" }, '"default-amount"'],
    [{ shortcode: "7" }, '"shortcode"'],
    [{ "default-frequency": "weekly" }, '"default-frequency"'],
    [{ heading: "   " }, '"heading"'],
    [{ "privacy-url": "data:text/html,hi" }, '"privacy-url"'],
  ])("name the bad one in %j", (bad, named) => {
    const result = read({ proxy: "https://give.example.org", shortcode: "71777", keyword: "HOPE", ...bad });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toContain(named);
  });

  it("need shortcode and keyword together, or event-id and event-type together", () => {
    const result = read({ proxy: "https://give.example.org", "event-id": "2026-hope-walk" });
    expect(!result.ok && result.problem).toContain('the "event-type" attribute is required');
  });
});
