import { computed, signal, type ReadonlySignal } from "@preact/signals-core";
import type { Campaign, DonationRequest } from "../../../contract/api";
import { feeCents, fromCents, toCents } from "../../../contract/money";
import { AMOUNT_PATTERN } from "../../../contract/patterns";
import type { DonateProps, Frequency, Presets } from "../base/attributes";

/** How many characters a donor can type into the amount box ("10,000.00" and then some). */
export const OTHER_AMOUNT_MAX = 12;

/** "$1,250.5 " → 125050 cents; what people type around an amount is not part of it. */
export function parseAmountInput(input: string): number | null {
  const cleaned = input.replace(/[\s$,]/g, "");
  if (!AMOUNT_PATTERN.test(cleaned)) return null;
  const cents = toCents(cleaned);
  return cents > 0 ? cents : null;
}

/** Why an amount cannot be given: none, or outside the campaign's range. */
const amountProblem = (amount: number | null, c: Campaign | null): "required" | "range" | undefined =>
  amount === null
    ? "required"
    : c && (amount < toCents(c.min_amount) || amount > toCents(c.max_amount))
      ? "range"
      : undefined;

/**
 * The gift: how often, how much (a preset or the donor's own amount), the fee the donor may
 * cover, and the total. The campaign, once loaded, says which frequencies and amounts it takes.
 *
 * @example
 * const gift = createGiftModel(props, campaign);
 * gift.amountChoice.value = 5000;
 * gift.coverFee.value = true; // gift.totalCents.value === 5150 at a 3 % fee rate
 */
export function createGiftModel(
  props: Pick<
    DonateProps,
    | "amounts"
    | "amountLabels"
    | "monthlyAmounts"
    | "defaultAmount"
    | "defaultFrequency"
    | "frequencies"
    | "coverFee"
  >,
  campaign: ReadonlySignal<Campaign | null>,
) {
  /** The presets shown for a frequency: a recurring gift's own (`monthly-amounts`) if given. */
  const presetsFor = (f: Frequency): Presets =>
    f !== "once" && props.monthlyAmounts
      ? props.monthlyAmounts
      : { amounts: props.amounts, labels: props.amountLabels };
  const frequency = signal<Frequency>(props.defaultFrequency);
  /** The first choice: the element's (or the link's) amount, else the first preset shown. */
  const start = props.defaultAmount ?? presetsFor(props.defaultFrequency).amounts[0]!;
  const presetAmount = presetsFor(props.defaultFrequency).amounts.includes(start);
  const amountChoice = signal<number | "other">(presetAmount ? start : "other");
  const otherAmount = signal(presetAmount ? "" : fromCents(start));
  /** The box's state: the donor's choice, ticked at first when preselected (`addsFee` says if the fee is added). */
  const coverFee = signal(props.coverFee === "preselected" || props.coverFee === "required");
  /**
   * The monthly invitation (an extra, gift/monthly-offer.ts) waits for the donor's own choice of
   * a one-time amount, and is answered once.
   */
  const promptArmed = signal(false);
  const promptAnswered = signal(false);
  const presets = computed(() => presetsFor(frequency.value));

  /** The element's frequencies the campaign takes; once a gift is always possible. */
  const frequencies = computed<Frequency[]>(() => {
    const offered = campaign.value?.recurring_frequencies ?? [];
    const available = props.frequencies.filter((f) => f === "once" || offered.includes(f));
    return available.length > 0 ? available : ["once"];
  });
  const amountCents = computed(() => {
    const choice = amountChoice.value;
    const other = parseAmountInput(otherAmount.value);
    return choice === "other" ? other : choice;
  });
  const feeAmountCents = computed(() => {
    const c = campaign.value;
    const amount = amountCents.value;
    return c && amount !== null ? feeCents(amount, c.fee_rate) : 0;
  });
  const addsFee = computed(() => {
    const ticked = coverFee.value;
    return props.coverFee === "required" || (props.coverFee !== "off" && ticked);
  });
  const totalCents = computed(() => {
    const amount = amountCents.value;
    const fee = addsFee.value ? feeAmountCents.value : 0;
    return amount === null ? null : amount + fee;
  });
  return {
    frequency,
    frequencies,
    presets,
    amountChoice,
    otherAmount,
    amountCents,
    coverFee,
    feeAmountCents,
    totalCents,
    promptArmed,
    promptAnswered,

    /** The donor chose or typed an amount: the monthly invitation may now show. */
    armPrompt() {
      promptArmed.value = true;
    },

    /** The gift's part of the donation request (an amount that is not one is sent as typed, for the proxy to name). */
    request(): Pick<DonationRequest, "amount" | "cover_fee" | "recurring_frequency"> {
      const amount = amountCents.value;
      return {
        amount: amount === null ? otherAmount.value : fromCents(amount),
        cover_fee: addsFee.value,
        ...(frequency.value !== "once" && { recurring_frequency: frequency.value }),
      };
    },

    /** Why the amount cannot be given: none chosen, or outside the campaign's range. */
    problem: () => amountProblem(amountCents.value, campaign.value),

    /**
     * Gives how often: a preset chosen among the one-time presets becomes the one in the same
     * place among the recurring ones (when they differ), so the choice is never one not shown.
     */
    chooseFrequency(next: Frequency) {
      const before = presets.peek().amounts;
      const index =
        typeof amountChoice.peek() === "number" ? before.indexOf(amountChoice.peek() as number) : -1;
      frequency.value = next;
      const after = presets.peek().amounts;
      if (after !== before && index >= 0) amountChoice.value = after[Math.min(index, after.length - 1)]!;
    },

    /** Once the campaign is known: a frequency it does not take falls back to the first it does. */
    fitFrequency() {
      if (!frequencies.peek().includes(frequency.peek())) frequency.value = frequencies.peek()[0]!;
    },

    /** Back to the element's amount, for the next gift. */
    reset() {
      amountChoice.value = presetAmount ? start : "other";
      otherAmount.value = presetAmount ? "" : fromCents(start);
      promptArmed.value = false;
      promptAnswered.value = false;
    },
  };
}
export type GiftModel = ReturnType<typeof createGiftModel>;
