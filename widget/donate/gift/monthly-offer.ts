import type { Campaign } from "../../../contract/api";
import { fromCents, toCents } from "../../../contract/money";
import type { MonthlyPrompt } from "../base/attributes";
import type { GiftModel } from "./gift";

/*
 * The monthly invitation's reckoning (`monthly-prompt`): with its component (MonthlyPrompt.tsx),
 * an extra fetched beside the rest of the form only by a form that turns it on. The gift model
 * keeps whether it is armed and answered (gift.ts), so nothing is lost before it has come.
 */

/**
 * The monthly gift the invitation suggests for a one-time `amountCents`: the prompt's share of it
 * or its set amount, rounded up to a whole unit and at least `minCents`; null when that would not
 * be less than the one-time gift (nothing worth offering).
 *
 * @example
 * suggestMonthly(10000, { share: 100 / 3 }, 500); // 3400: $34 a month for a $100 gift
 */
export function suggestMonthly(amountCents: number, prompt: MonthlyPrompt, minCents: number): number | null {
  const raw = "cents" in prompt ? prompt.cents : (amountCents * prompt.share) / 100;
  const cents = Math.max(Math.ceil(raw / 100 - 1e-9) * 100, minCents);
  return cents < amountCents ? cents : null;
}

/**
 * The monthly gift to suggest now, or null when the invitation is not to be shown: after the
 * donor's own choice of a one-time amount the campaign takes, where it takes monthly gifts, until
 * answered. Reads the gift's signals (a reactive component shows it again as they change).
 *
 * @example
 * gift.amountChoice.value = 10000;
 * gift.armPrompt();
 * monthlySuggestion(gift, { share: 100 / 3 }, campaign.value); // 3400
 */
export function monthlySuggestion(
  gift: GiftModel,
  prompt: MonthlyPrompt | null,
  c: Campaign | null,
): number | null {
  const amount = gift.amountCents.value;
  const waiting = gift.promptArmed.value && !gift.promptAnswered.value;
  const once = gift.frequency.value === "once" && gift.frequencies.value.includes("monthly");
  if (!prompt || !c || !waiting || !once || amount === null || gift.problem()) return null;
  return suggestMonthly(amount, prompt, toCents(c.min_amount));
}

/**
 * The donor's one tap on the invitation: monthly at the suggested amount (a monthly preset when
 * there is one, else the donor's own amount), or the one-time gift as it was. Answered once.
 */
export function answerMonthly(
  gift: GiftModel,
  prompt: MonthlyPrompt | null,
  c: Campaign | null,
  accept: boolean,
): void {
  const suggested = monthlySuggestion(gift, prompt, c);
  gift.promptAnswered.value = true;
  if (!accept || suggested === null) return;
  gift.frequency.value = "monthly";
  const preset = gift.presets.peek().amounts.includes(suggested);
  gift.amountChoice.value = preset ? suggested : "other";
  gift.otherAmount.value = preset ? "" : fromCents(suggested);
}
