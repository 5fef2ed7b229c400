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
  refused: "This card form cannot be used on this page.",
};
export type FrameMessages = typeof frameEn;
