/**
 * What the form needs after its first step, and in it only once the donor has acted (the monthly
 * invitation, MonthlyPrompt): the donor's step and the options (DonorFields,
 * DonorOptions), the card's (CardField, the frame and its port), the attempt (the card token, the request,
 * the answer, the Pending follow-up) and the screens it ends on. A chunk of its own, fetched as
 * the form opens (model/later.ts), so the first step works before it has arrived.
 */
export { MonthlyPrompt } from "./MonthlyPrompt";
export { DonorFields } from "./DonorFields";
export { DonorOptions } from "./DonorOptions";
export { laterProblemText } from "./later-problem-text";
export { CardField } from "./CardField";
export { createCardPort } from "./card-port";
export { createDonorModel } from "./model/donor";
export { createDedicationModel } from "./model/dedication";
export { createAttempt } from "./model/attempt";
export { Outcome } from "./Outcome";
export { pushPurchase } from "./data-layer";
