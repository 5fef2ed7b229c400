/**
 * What the form needs after its first step: the donor's step and the options (DonorFields,
 * DonorOptions), the card's (CardField, the frame and its port), the donation sent (the request,
 * its check, the attempt: the card token, the answer, the Pending follow-up) and the screens it
 * ends on. A chunk of its own, fetched as the form opens (load-later.ts), so the first step
 * works before it has arrived; the parts only some forms use (the extras: the country list, the
 * phone rule, a dedication, the monthly invitation, the dataLayer push) come beside it when the
 * element turns them on. The form's components render its parts with `lazy()` (base/lazy.ts).
 */
export { DonorFields } from "./donor/DonorFields";
export { DonorOptions } from "./options/DonorOptions";
export { CardField } from "./card/CardField";
export { createCardPort } from "./card/card-port";
export { createDonorModel } from "./donor/donor";
export { smsConsentText } from "./donor/sms-consent";
export { createSend } from "./outcome/send";
export { Outcome } from "./outcome/Outcome";
export { allowedSuccessUrl, tellDonation } from "./outcome/tell";
