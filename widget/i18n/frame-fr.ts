import type { FrameMessages } from "./frame-en";

/** The card frame's French strings. */
export const frameFr: FrameMessages = {
  title: "Informations de la carte",
  number: "Numéro de carte",
  expiry: "Date d'expiration",
  expiryHint: "MM/AAAA",
  cvv: "Code de sécurité",
  cvvHint: (digits: number) => `${digits} chiffres`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "Le numéro de carte n'est pas valide.",
  expiryInvalid: "Saisissez la date d'expiration au format MM/AAAA.",
  expired: "La carte est expirée.",
  cvvInvalid: (digits: number) => `Saisissez le code de sécurité à ${digits} chiffres.`,
  challengeTitle: "Confirmez que vous êtes une personne",
  challengeStatus: {
    solving: "Un instant : nous vérifions que ce paiement est sûr…",
    shown:
      "De nombreux paiements par carte sont tentés sur ce formulaire en ce moment. Effectuez la vérification ci-dessous et votre don se poursuivra.",
    checking: "Merci. Vérification de votre carte…",
    failed: "La vérification a échoué ; aucun montant n'a été prélevé. Réessayez.",
  },
  refused: "Ce formulaire de carte ne peut pas être utilisé sur cette page.",
};
