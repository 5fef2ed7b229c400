import type { ReadonlySignal } from "@preact/signals-core";
import type { CampaignResponse } from "../../../contract/api";
import { fromCents } from "../../../contract/money";
import { emit } from "../../shared/events";
import { giftContext, type GiftContext } from "../base/analytics";
import { warn, type DonateProps } from "../base/attributes";
import type { DonateEnd, DonateStatus, FinalStatus } from "../base/status";

/** How long the thank-you shows before a `success-url` takes the donor on, in ms. */
export const SUCCESS_REDIRECT_MS = 4000;

/**
 * A `success-url` the form may take the donor to: on the page's own origin or one the proxy serves
 * the widget on (its ALLOWED_ORIGINS, said with the campaign); any other is left out with a
 * `[givekit]` line (a form must not send donors off-site).
 */
export function allowedSuccessUrl(url: string | null, allowedOrigins: readonly string[] = []): string | null {
  if (!url) return null;
  const origin = new URL(url).origin;
  if (origin === location.origin || allowedOrigins.includes(origin)) return url;
  warn(
    `success-url must be on this page's origin or one the proxy allows (${origin} is neither); it is ignored`,
  );
  return null;
}

/** What telling a donation needs of the form's model (DonationModel has it). */
export interface Told {
  props: DonateProps;
  campaign: ReadonlySignal<CampaignResponse | null>;
  status: ReadonlySignal<DonateStatus>;
  /** The GA4 purchase for `window.dataLayer`, with `data-layer`. */
  pushPurchase(context: GiftContext, amount: string, transactionId: string): void;
  /** The page the donor goes to after the thank-you, if any (and allowed). */
  successUrl(): string | null;
  /** Follows a Pending donation up; null if it stops without an answer. */
  follow(): Promise<FinalStatus | null>;
}

/**
 * Tells the page how a donation ended (`givekit:donation` on `host`): charged (then, with
 * `data-layer`, the purchase for the page's analytics, and after the thank-you the nonprofit's
 * own page, `success-url`), or Pending, followed up until it is known and told again then.
 * With the rest of the form (later.ts): only a donation sent ends here.
 */
export async function tellDonation(host: HTMLElement, model: Told, outcome: DonateEnd): Promise<void> {
  const { props } = model;
  const context = giftContext(
    props.target,
    model.campaign.peek()?.currency ?? "USD",
    outcome.frequency,
    location.search,
  );
  const amount = fromCents(outcome.totalCents);
  const told = (said: "Success" | "Pending" | "NotCharged", transactionId: string | null) => {
    emit(host, "givekit:donation", {
      ...context,
      status: said,
      amount,
      frequency: outcome.frequency,
      transaction_id: transactionId,
    });
    if (said !== "Success" || !transactionId) return;
    // Fetched beside later.ts as the form opened: it is there.
    if (props.dataLayer) model.pushPurchase(context, amount, transactionId);
    const next = model.successUrl();
    // The thank-you is read first; then the nonprofit's own page takes over.
    if (next) setTimeout(() => location.assign(next), SUCCESS_REDIRECT_MS);
  };
  const success = outcome.kind === "success";
  told(success ? "Success" : "Pending", success ? outcome.transactionId : null);
  if (success) return;
  // The form is gone by now; the model keeps asking, and the page hears how it ended.
  const final = await model.follow();
  const end = model.status.peek();
  if (final) told(final, end.kind === "success" ? end.transactionId : null);
}
