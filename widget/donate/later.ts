/**
 * What a donation needs only once Donate is pressed: the attempt (the card token, the request,
 * the answer, the Pending follow-up) and the screens it ends on. A chunk of its own, fetched as
 * the form opens (model/later.ts), so the first step works before it has arrived.
 */
export { createAttempt } from "./model/attempt";
export { Outcome } from "./Outcome";
export { pushPurchase } from "./data-layer";
