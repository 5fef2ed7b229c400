import type { GiftContext } from "../base/analytics";

/** Transactions already pushed on this page: a purchase is counted once, whatever fires again. */
const pushed = new Set<string>();

/**
 * With `data-layer` on the element, a charged gift becomes a GA4-style `purchase` in
 * `window.dataLayer` (created if the page has none): once per transaction, never for a gift
 * that was declined or is still Pending.
 */
export function pushPurchase(
  context: GiftContext,
  amount: string,
  transactionId: string,
  layer = window as unknown as { dataLayer?: unknown[] },
): void {
  if (pushed.has(transactionId)) return;
  pushed.add(transactionId);
  const value = Number(amount);
  const campaign = context.keyword ? `${context.shortcode}/${context.keyword}` : "event";
  (layer.dataLayer ??= []).push({
    event: "purchase",
    ecommerce: {
      transaction_id: transactionId,
      value,
      currency: context.currency,
      items: [
        {
          item_id: campaign,
          item_name: campaign,
          item_category: context.frequency,
          price: value,
          quantity: 1,
        },
      ],
    },
  });
}
