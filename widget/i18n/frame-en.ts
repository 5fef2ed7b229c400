/** The card frame's English strings; the frame loads only these. */
export const frameEn = {
  title: "Card details",
  number: "Card number",
  expiry: "Expiry date",
  expiryHint: "MM/YYYY",
  cvv: "Security code",
  cvvHint: (digits: number) => `${digits} digits`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "The card number is not valid.",
  expiryInvalid: "Enter the expiry date as MM/YYYY.",
  expired: "The card has expired.",
  cvvInvalid: (digits: number) => `Enter the ${digits}-digit security code.`,
  challengeTitle: "Confirm you are a person",
  challengeStatus: {
    solving: "One moment: checking this payment is safe…",
    shown:
      "Many card payments are being tried on this form right now. Complete the check below and your gift will continue.",
    checking: "Thank you. Checking your card…",
    failed: "The check did not pass, so nothing was charged. Try again.",
  },
  refused: "This card form cannot be used on this page.",
};
export type FrameMessages = typeof frameEn;
