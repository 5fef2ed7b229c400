import { describe, expect, it } from "vitest";
import { readDonateAttributes } from "../base/attributes";
import { campaignPath, earlyCampaignPath } from "./campaign";

const getter = (attributes: Partial<Record<string, string>>) => (name: string) => attributes[name] ?? null;

describe("widget.js asks for the very campaign the form will ask for", () => {
  it.each([
    { shortcode: "71777", keyword: "HOPE" },
    { shortcode: "71777", keyword: "hope" },
    { shortcode: "71777", keyword: "HOPE", "event-id": "2026-hope-walk", "event-type": "peer_campaign" },
  ])("%o", (attributes) => {
    const read = readDonateAttributes(getter(attributes));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(earlyCampaignPath(getter(attributes))).toBe(campaignPath(read.props.target));
  });

  it("a form named by its event, or by half a pair, is left to ask for itself", () => {
    expect(earlyCampaignPath(getter({ shortcode: "71777" }))).toBeNull();
    expect(
      earlyCampaignPath(getter({ "event-id": "2026-hope-walk", "event-type": "peer_campaign" })),
    ).toBeNull();
  });
});
