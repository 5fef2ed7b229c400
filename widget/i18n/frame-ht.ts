import type { FrameMessages } from "./frame-en";

/** The card frame's Haitian Creole strings. */
export const frameHt: FrameMessages = {
  title: "Enfòmasyon kat la",
  number: "Nimewo kat la",
  expiry: "Dat ekspirasyon",
  expiryHint: "MM/AAAA",
  cvv: "Kòd sekirite",
  cvvHint: (digits: number) => `${digits} chif`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "Nimewo kat la pa valab.",
  expiryInvalid: "Antre dat ekspirasyon an konsa: MM/AAAA.",
  expired: "Kat la ekspire.",
  cvvInvalid: (digits: number) => `Antre kòd sekirite ${digits} chif la.`,
  challengeTitle: "Konfime ou se yon moun",
  challengeStatus: {
    solving: "Yon ti moman: n ap verifye si peman sa a an sekirite…",
    shown:
      "Gen anpil moun k ap eseye peye ak kat sou fòm sa a kounye a. Fini verifikasyon ki anba a epi don ou an ap kontinye.",
    checking: "Mèsi. N ap verifye kat ou…",
    failed: "Verifikasyon an pa pase, kidonk yo pa chaje w anyen. Eseye ankò.",
  },
  refused: "Yo pa ka sèvi ak fòm kat sa a sou paj sa a.",
};
