import { signal } from "@preact/signals-core";
import { describe, expect, it } from "vitest";
import type { Campaign } from "../../../contract/api";
import { GIFT_PROPS, type GiftProps, HOPE } from "../../../test/helpers/donate-harness";
import type { MonthlyPrompt } from "../base/attributes";
import { createGiftModel } from "./gift";
import { answerMonthly, monthlySuggestion, suggestMonthly } from "./monthly-offer";

const PROPS = GIFT_PROPS;

/** A gift model with `monthly-prompt` as `prompt`: what it suggests now, and the donor's answer. */
function offer(prompt: MonthlyPrompt | null, props: Partial<GiftProps> = {}, loaded: Campaign | null = HOPE) {
  const campaign = signal<Campaign | null>(loaded);
  const gift = createGiftModel({ ...PROPS, ...props }, campaign);
  return {
    gift,
    suggested: () => monthlySuggestion(gift, prompt, campaign.value),
    answer: (accept: boolean) => answerMonthly(gift, prompt, campaign.value, accept),
  };
}

describe("the monthly invitation", () => {
  it("suggests a share of the one-time gift, rounded up to a whole unit, never below the minimum, never as much as the gift", () => {
    expect(suggestMonthly(10000, { share: 100 / 3 }, 500)).toBe(3400);
    expect(suggestMonthly(10000, { share: 30 }, 500)).toBe(3000);
    expect(suggestMonthly(1000, { share: 100 / 3 }, 500)).toBe(500);
    expect(suggestMonthly(500, { share: 100 / 3 }, 500)).toBeNull();
    expect(suggestMonthly(10000, { cents: 2000 }, 500)).toBe(2000);
    expect(suggestMonthly(1500, { cents: 2000 }, 500)).toBeNull();
  });

  it("shows only once the donor has chosen a one-time amount, and is answered once", () => {
    const { gift, suggested, answer } = offer({ share: 100 / 3 });
    gift.amountChoice.value = 10000;
    expect(suggested()).toBeNull();
    gift.armPrompt();
    expect(suggested()).toBe(3400);
    answer(false);
    expect(suggested()).toBeNull();
    expect(gift.request()).toEqual({ amount: "100.00", cover_fee: false });
  });

  it("accepted: a monthly gift of the suggested amount, a preset when there is one", () => {
    const { gift, suggested, answer } = offer(
      { cents: 2500 },
      { monthlyAmounts: { amounts: [1000, 2500], labels: {} } },
    );
    gift.amountChoice.value = 10000;
    gift.armPrompt();
    answer(true);
    expect(gift.frequency.value).toBe("monthly");
    expect(gift.amountChoice.value).toBe(2500);
    expect(gift.request()).toEqual({ amount: "25.00", cover_fee: false, recurring_frequency: "monthly" });
    expect(suggested()).toBeNull();
  });

  it("accepted with no such preset: the amount goes to Other", () => {
    const { gift, answer } = offer({ share: 100 / 3 });
    gift.amountChoice.value = 10000;
    gift.armPrompt();
    answer(true);
    expect(gift.amountChoice.value).toBe("other");
    expect(gift.otherAmount.value).toBe("34.00");
    expect(gift.request()).toEqual({ amount: "34.00", cover_fee: false, recurring_frequency: "monthly" });
  });

  it("a new gift arms and answers it afresh", () => {
    const { gift, suggested, answer } = offer({ share: 100 / 3 });
    gift.amountChoice.value = 10000;
    gift.armPrompt();
    answer(false);
    gift.reset();
    gift.amountChoice.value = 10000;
    expect(suggested()).toBeNull();
    gift.armPrompt();
    expect(suggested()).toBe(3400);
  });

  it("is not shown for a recurring gift, a campaign with no monthly gifts, or an amount out of range; off by default", () => {
    const monthly = offer({ share: 50 });
    monthly.gift.armPrompt();
    monthly.gift.chooseFrequency("monthly");
    expect(monthly.suggested()).toBeNull();
    const noMonthly = offer({ share: 50 }, {}, { ...HOPE, recurring_frequencies: [] });
    noMonthly.gift.armPrompt();
    expect(noMonthly.suggested()).toBeNull();
    const big = offer({ share: 50 });
    big.gift.armPrompt();
    big.gift.amountChoice.value = "other";
    big.gift.otherAmount.value = "999999";
    expect(big.suggested()).toBeNull();
    const off = offer(null);
    off.gift.armPrompt();
    expect(off.suggested()).toBeNull();
  });
});
