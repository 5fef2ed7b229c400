import { toCents } from "../../../contract/money";
import { isAmount } from "../../../contract/patterns";
import type { Campaign } from "../../../contract/api";
import { warn, type DonateProps, type Frequency } from "../base/attributes";

const ignored = (what: string) => warn(`${what}; it is ignored`);

/**
 * The element's defaults with a link's prefill over them: `?amount=100&frequency=monthly` from an
 * e-mail appeal. A value the form does not offer is ignored with a `[givekit]` line, never shown
 * to the donor as an error (a link is the fundraiser's, not the donor's, mistake).
 *
 * @example
 * prefill(props, "?amount=100&frequency=monthly") // { ...props, defaultAmount: 10000, defaultFrequency: "monthly" }
 */
export function prefill(props: DonateProps, search: string): DonateProps {
  const query = new URLSearchParams(search);
  const amount = query.get("amount");
  const frequency = query.get("frequency");
  let { defaultAmount, defaultFrequency } = props;
  if (amount !== null) {
    if (isAmount(amount) && toCents(amount) > 0) defaultAmount = toCents(amount);
    else ignored(`the link's amount "${amount.slice(0, 20)}" is not an amount`);
  }
  if (frequency !== null) {
    if (props.frequencies.includes(frequency as Frequency)) defaultFrequency = frequency as Frequency;
    else
      ignored(
        `the link's frequency "${frequency.slice(0, 20)}" is not one this form offers (${props.frequencies.join(", ")})`,
      );
  }
  return { ...props, defaultAmount, defaultFrequency };
}

/**
 * The amount to start with once the campaign's range is known: the prefilled one if the campaign
 * takes it, else (with a `[givekit]` line) the first preset it takes, else none.
 */
export function amountWithinRange(
  cents: number | null,
  props: Pick<DonateProps, "amounts">,
  campaign: Pick<Campaign, "min_amount" | "max_amount">,
): number | "other" | null {
  const within = (value: number) =>
    value >= toCents(campaign.min_amount) && value <= toCents(campaign.max_amount);
  if (cents === null || within(cents)) return null;
  ignored(
    `the amount ${(cents / 100).toFixed(2)} is outside this campaign's range (${campaign.min_amount} to ${campaign.max_amount})`,
  );
  return props.amounts.find(within) ?? "other";
}
