import type { DonateMessages } from "./donate-en";
import { plural } from "./plural";

/** The `donate` section of the French catalog (same shape as donate-en.ts). */
export const donateFr: DonateMessages = {
  heading: "Faire un don",
  loading: "Chargement du formulaire de don…",
  frequencyLegend: "Fréquence",
  frequency: { once: "Une fois", monthly: "Mensuel", quarterly: "Trimestriel", annually: "Annuel" },
  per: { once: "", monthly: "par mois", quarterly: "par trimestre", annually: "par année" },
  amountLegend: "Montant",
  otherAmount: "Autre",
  otherAmountLabel: "Autre montant",
  amountRange: (min: string, max: string) => `Entre ${min} et ${max}.`,
  coverFee: (fee: string) => `Ajouter ${fee} pour couvrir les frais de traitement`,
  coverFeeAny: "Ajouter les frais de traitement à mon don",
  feeIncluded: (fee: string) => `Comprend ${fee} pour couvrir les frais de traitement.`,
  feeIncludedAny: "Comprend les frais de traitement.",
  peerLabel: "Donner en soutien à un collecteur ou à une équipe",
  peerHint: "Tapez un nom, puis choisissez dans la liste.",
  peerSearching: "Recherche…",
  peerNone: "Aucun collecteur ni aucune équipe ne correspond.",
  peerCount: (count: number) =>
    plural("fr", count, { one: `${count} résultat.`, other: `${count} résultats.` }),
  peerTeam: "Équipe",
  peerTeamWord: /(^|\s)([ée]quipe|team)(\s|$)/i,
  peerSupporting: (name: string) => `Votre don soutient ${name}.`,
  peerRaised: (raised: string, goal: string | null) =>
    goal ? `${raised} recueillis sur ${goal}.` : `${raised} recueillis jusqu'ici.`,
  peerRemove: "Retirer",
  peerFailed: "Le collecteur ou l'équipe nommé par cette page n'a pas pu être chargé.",
  peerRetry: "Réessayer",
  steps: ["Étape 1 sur 3 : Votre don", "Étape 2 sur 3 : Vos coordonnées", "Étape 3 sur 3 : Paiement"],
  next: "Suivant",
  back: "Retour",
  submit: (total: string, per: string) => (per ? `Donner ${total} ${per}` : `Donner ${total}`),
  submitting: "Traitement de votre don…",
  errors: {
    amount: "Choisissez ou saisissez un montant.",
    amountRange: (min: string, max: string) => `Saisissez un montant entre ${min} et ${max}.`,
    peer: "Choisissez un collecteur ou une équipe dans la liste.",
    field: "Vérifiez ce champ.",
    required: "Remplissez ce champ.",
  },
};
