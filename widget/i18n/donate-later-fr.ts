import type { DonateLaterMessages } from "./donate-later-en";

/** The `donateLater` section of the French catalog (same shape as donate-later-en.ts). */
export const donateLaterFr: DonateLaterMessages = {
  monthlyPrompt: (amount: string) => `Et si vous donniez plutôt ${amount} par mois ?`,
  monthlyPromptWhy: "Les dons mensuels nous permettent de planifier.",
  monthlyYes: (amount: string) => `Oui, ${amount} par mois`,
  monthlyNo: (amount: string) => `Non, donner ${amount} une fois`,
  donorLegend: "Vos coordonnées",
  fullName: "Nom complet",
  email: "Courriel",
  phone: "Téléphone",
  street: "Adresse",
  city: "Ville",
  state: "État ou province",
  country: "Pays",
  zip: "Code ZIP",
  postalCode: "Code postal",
  cardLegend: "Carte",
  cardFrameTitle: "Informations de la carte",
  cardFrameFailed:
    "Le formulaire de carte n'a pas pu se charger. Rechargez la page ou donnez d'une autre façon.",
  optionsLegend: "Options",
  anonymous: "Faire un don anonyme",
  pledgeWall: "Afficher mon don sur le mur des promesses",
  memo: "Message",
  dedicate: "Dédier mon don à quelqu'un",
  dedicationKind: "Dédicace",
  dedicationKinds: { honor: "En l'honneur de", memory: "À la mémoire de" },
  dedicationName: "Son nom",
  dedicationEmail: "Prévenir quelqu'un de mon don par courriel",
  smsOptIn: (program: string) => `Recevoir des nouvelles de ${program} par texto`,
  smsDisclosure: (program: string) =>
    `Facultatif. En cochant cette case, vous acceptez de recevoir des textos automatisés récurrents de ${program} au numéro de téléphone ci-dessus. Votre consentement n'est pas une condition pour donner. La fréquence des messages varie. Des frais de messagerie et de données peuvent s'appliquer. Répondez HELP pour obtenir de l'aide, STOP pour vous désabonner.`,
  smsProgramFallback: "cet organisme",
  errors: {
    email: "Saisissez une adresse courriel, par exemple nom@exemple.org.",
    phone: "Saisissez un numéro de téléphone des États-Unis ou du Canada.",
    smsPhone: "Saisissez votre numéro de cellulaire pour recevoir des textos.",
    zip: "Saisissez un code ZIP, par exemple 12345.",
    postalCode: "Saisissez un code postal.",
    country: "Choisissez un pays.",
    street: "Raccourcissez l'adresse.",
    city: "Raccourcissez le nom de la ville.",
    state: "Raccourcissez l'État ou la province.",
    memo: (max: number) => `Le message doit compter moins de ${max} caractères.`,
    dedicationName: "Saisissez le nom de la personne que votre don honore ou dont il rappelle la mémoire.",
    dedicationNameInvalid: (max: number) => `Saisissez un nom d'au plus ${max} caractères, sans < ni >.`,
    dedicationTooLong: "Raccourcissez le message ou la dédicace : ensemble, ils sont trop longs.",
    card: "Vérifiez les informations de votre carte.",
  },
  outcome: {
    successTitle: "Merci !",
    success: (amount: string, per: string) =>
      per
        ? `Votre don de ${amount} ${per} a bien été effectué.`
        : `Votre don de ${amount} a bien été effectué.`,
    transaction: "Numéro de transaction",
    dedicated: {
      honor: (name: string) => `En l'honneur de ${name}.`,
      memory: (name: string) => `À la mémoire de ${name}.`,
    },
    again: "Faire un autre don",
    declined:
      "Votre carte a été refusée ; aucun montant n'a été prélevé. Vérifiez les informations de la carte ou utilisez-en une autre.",
    paymentFailed:
      "Le paiement n'a pas pu être traité ; aucun montant n'a été prélevé. Essayez une autre carte.",
    pendingTitle: "Nous n'avons pas pu confirmer votre don",
    pending:
      "Il a peut-être été effectué : ne donnez pas de nouveau. Si vous contactez l'organisme, donnez-lui cette référence :",
    reference: "Référence",
    asking: "Nous vérifions auprès du service de paiement ; cette page se mettra à jour d'elle-même.",
    notFound: "Nous ne pouvons plus retrouver ce don. Veuillez donner cette référence à l'organisme.",
    gaveUp:
      "Nous ne pouvons toujours pas le confirmer. Donnez cette référence à l'organisme avant de donner de nouveau.",
    notCharged: "Votre don n'a pas été effectué ; aucun montant n'a été prélevé. Vous pouvez réessayer.",
    inProgress: "Votre don est encore en traitement. Patientez un instant, puis réessayez.",
    rateLimited: "Trop de dons depuis ce réseau en ce moment. Réessayez dans une minute.",
    checking: "Vérification… Si cela dure, réessayez dans une minute ou désactivez le Wi-Fi.",
    tooManyDeclines:
      "Trop de cartes refusées depuis ce réseau ; aucun montant n'a été prélevé. Réessayez plus tard.",
    invalidPeer:
      "Ce collecteur ou cette équipe ne fait pas partie de cette campagne. Choisissez-en un autre ou retirez-le.",
    failed: "Une erreur s'est produite de notre côté. Réessayez plus tard.",
  },
};
