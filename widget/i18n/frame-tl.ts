import type { FrameMessages } from "./frame-en";

/** The card frame's Tagalog strings. */
export const frameTl: FrameMessages = {
  title: "Mga detalye ng kard",
  number: "Numero ng kard",
  expiry: "Petsa ng pag-expire",
  expiryHint: "MM/YYYY (buwan/taon)",
  cvv: "Code ng seguridad",
  cvvHint: (digits: number) => `${digits} digit`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "Hindi wasto ang numero ng kard.",
  expiryInvalid: "Ilagay ang petsa ng pag-expire bilang MM/YYYY.",
  expired: "Expired na ang kard.",
  cvvInvalid: (digits: number) => `Ilagay ang ${digits}-digit na code ng seguridad.`,
  challengeTitle: "Kumpirmahing tao ka",
  challengeStatus: {
    solving: "Sandali lang: sinusuri kung ligtas ang bayad na ito…",
    shown:
      "Maraming bayad gamit ang kard ang sinusubukan sa form na ito ngayon. Tapusin ang pagsusuri sa ibaba at magpapatuloy ang iyong donasyon.",
    checking: "Salamat. Sinusuri ang iyong kard…",
    failed: "Hindi pumasa ang pagsusuri, kaya walang siningil. Subukang muli.",
  },
  refused: "Hindi magagamit ang form ng kard na ito sa pahinang ito.",
};
