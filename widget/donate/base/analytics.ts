import { readUtm, type Utm } from "../../../contract/utm";
import type { GivekitEventMap } from "../../shared/events";
import type { DonateTarget, Frequency } from "./attributes";

/** What a page's analytics hear with every donate event: the campaign, its currency, the page's tags. */
export type GiftContext = Pick<
  GivekitEventMap["givekit:ready"],
  "currency" | "shortcode" | "keyword" | "frequency"
> &
  Utm;

/**
 * The context of a donate form's events, without cookies: the campaign it gives to and the page's
 * `utm_*` values (from the address the donor landed on, cleaned as contract/utm.ts says).
 *
 * @example
 * giftContext({ shortcode: "71777", keyword: "HOPE" }, "USD", "monthly", "?utm_source=newsletter")
 * // { currency: "USD", shortcode: "71777", keyword: "HOPE", frequency: "monthly", utm_source: "newsletter" }
 */
export function giftContext(
  target: DonateTarget,
  currency: string,
  frequency: Frequency,
  search: string,
): GiftContext {
  return {
    currency,
    shortcode: target.shortcode ?? null,
    keyword: target.keyword ?? null,
    frequency,
    ...readUtm(new URLSearchParams(search)),
  };
}
