import { signal } from "@preact/signals-core";
import { describe, expect, it } from "vitest";
import type { Campaign } from "../../../contract/api";
import { GIFT_PROPS, type GiftProps, HOPE } from "../../../test/helpers/donate-harness";
import { createGiftModel, parseAmountInput } from "./gift";

const PROPS = GIFT_PROPS;

function gift(props: Partial<GiftProps> = {}, loaded: Campaign | null = HOPE) {
  const campaign = signal<Campaign | null>(loaded);
  return { campaign, gift: createGiftModel({ ...PROPS, ...props }, campaign) };
}

describe("the gift model", () => {
  it("totals the amount and, when the donor covers it, the campaign's fee", () => {
    const { gift: g } = gift();
    g.amountChoice.value = 5000;
    expect(g.totalCents.value).toBe(5000);
    g.coverFee.value = true;
    expect(g.feeAmountCents.value).toBe(150);
    expect(g.totalCents.value).toBe(5150);
    expect(g.request()).toEqual({ amount: "50.00", cover_fee: true });
  });

  it("reads the donor's own amount as people type it, and sends a bad one as typed for the proxy to name", () => {
    const { gift: g } = gift();
    g.amountChoice.value = "other";
    g.otherAmount.value = "$1,250.5 ";
    expect(g.amountCents.value).toBe(125050);
    g.otherAmount.value = "12abc";
    expect(g.amountCents.value).toBeNull();
    expect(g.problem()).toBe("required");
    expect(g.request().amount).toBe("12abc");
    expect(parseAmountInput("0")).toBeNull();
  });

  it("says when the amount is outside the campaign's range", () => {
    const { gift: g } = gift();
    g.amountChoice.value = 400;
    expect(g.problem()).toBe("range");
    g.amountChoice.value = 1_000_001;
    expect(g.problem()).toBe("range");
    g.amountChoice.value = 500;
    expect(g.problem()).toBeUndefined();
  });

  it("offers the element's frequencies the campaign takes, and falls back when it takes none of the chosen", () => {
    const { gift: g, campaign } = gift({ defaultFrequency: "annually" }, null);
    expect(g.frequencies.value).toEqual(["once"]);
    campaign.value = HOPE; // HOPE takes monthly only
    expect(g.frequencies.value).toEqual(["once", "monthly"]);
    g.fitFrequency();
    expect(g.frequency.value).toBe("once");
    g.frequency.value = "monthly";
    expect(g.request()).toMatchObject({ recurring_frequency: "monthly" });
  });

  it("starts from a default amount that is not a preset as the other amount, and goes back to it on reset", () => {
    const { gift: g } = gift({ defaultAmount: 4000 });
    expect(g.amountChoice.value).toBe("other");
    expect(g.otherAmount.value).toBe("40.00");
    g.amountChoice.value = 10000;
    g.reset();
    expect(g.amountCents.value).toBe(4000);
  });

  it("a recurring gift shows its own presets (monthly-amounts); a chosen preset keeps its place when the frequency changes", () => {
    const { gift: g } = gift({
      amountLabels: { 2500: "A week of meals" },
      monthlyAmounts: { amounts: [1000, 2000, 3500], labels: { 2000: "A meal a day" } },
    });
    expect(g.presets.value).toEqual({ amounts: [2500, 5000, 10000], labels: { 2500: "A week of meals" } });
    g.amountChoice.value = 5000;
    g.chooseFrequency("monthly");
    expect(g.presets.value.labels[2000]).toBe("A meal a day");
    expect(g.amountCents.value).toBe(2000);
    g.chooseFrequency("once");
    expect(g.amountCents.value).toBe(5000);
    // The donor's own amount stays as typed.
    g.amountChoice.value = "other";
    g.otherAmount.value = "42";
    g.chooseFrequency("monthly");
    expect(g.amountCents.value).toBe(4200);
  });

  it("a link's monthly amount is kept as given, in the other amount when it is not a monthly preset", () => {
    const { gift: g } = gift({
      defaultAmount: 10000,
      defaultFrequency: "monthly",
      monthlyAmounts: { amounts: [1000, 2000], labels: {} },
    });
    expect(g.amountChoice.value).toBe("other");
    expect(g.amountCents.value).toBe(10000);
    const first = gift({
      defaultFrequency: "monthly",
      monthlyAmounts: { amounts: [1000, 2000], labels: {} },
    });
    expect(first.gift.amountCents.value).toBe(1000);
  });

  describe("cover-fee", () => {
    it("optional: the box starts unticked and the donor decides", () => {
      const { gift: g } = gift({ coverFee: "optional" });
      expect(g.request().cover_fee).toBe(false);
      g.coverFee.value = true;
      expect(g.totalCents.value).toBe(2500 + 75);
    });

    it("preselected: the fee is added until the donor unticks it", () => {
      const { gift: g } = gift({ coverFee: "preselected" });
      expect(g.request()).toEqual({ amount: "25.00", cover_fee: true });
      expect(g.totalCents.value).toBe(2575);
      g.coverFee.value = false;
      expect(g.totalCents.value).toBe(2500);
      expect(g.request().cover_fee).toBe(false);
    });

    it("required: always added, whatever the box's signal holds", () => {
      const { gift: g } = gift({ coverFee: "required" });
      g.coverFee.value = false;
      expect(g.totalCents.value).toBe(2575);
      expect(g.request().cover_fee).toBe(true);
    });

    it("off: never added", () => {
      const { gift: g } = gift({ coverFee: "off" });
      g.coverFee.value = true;
      expect(g.totalCents.value).toBe(2500);
      expect(g.request().cover_fee).toBe(false);
    });
  });
});
