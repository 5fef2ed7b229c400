import { donateFr } from "./donate-fr";
import { donateLaterFr } from "./donate-later-fr";
import type { Messages } from ".";
import { plural } from "./plural";

export { donateFr, donateLaterFr };

/** The French catalog, section by section, in en.ts's shape. */

export const commonFr: Messages["common"] = {
  unavailable:
    "Ce formulaire n'est pas disponible pour le moment. Contactez l'organisme pour donner ou vous inscrire.",
  optional: "facultatif",
  networkError: "Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.",
  upstreamDown:
    "Le service ne répond pas pour le moment. Aucun montant n'a été prélevé ; réessayez dans quelques minutes.",
  rateLimited: "Trop de tentatives depuis cette connexion. Patientez quelques minutes, puis réessayez.",
  fixErrors: (count: number) =>
    plural("fr", count, { one: `Corrigez ${count} champ.`, other: `Corrigez ${count} champs.` }),
  firstName: "Prénom",
  lastName: "Nom",
  firstNameRequired: "Indiquez votre prénom.",
  lastNameRequired: "Indiquez votre nom.",
  terms: "Conditions d'utilisation",
  privacy: "Politique de confidentialité",
  language: "Langue",
};

export const optinFr: Messages["optin"] = {
  heading: "Recevez nos nouvelles par texto",
  intro: (program: string) => `Inscrivez-vous aux textos de ${program}.`,
  allRequired: "Tous les champs sont obligatoires.",
  mobileLabel: "Numéro de cellulaire",
  mobileHint: "Un numéro de cellulaire des États-Unis ou du Canada, par exemple (555) 010-1234.",
  consentLabel: (program: string) => `J'accepte de recevoir des textos de ${program}.`,
  disclosure: (program: string) =>
    `En vous inscrivant, vous acceptez de recevoir des textos automatisés récurrents de ${program} au numéro de cellulaire indiqué. Votre consentement n'est pas une condition d'achat ni de don. La fréquence des messages varie. Des frais de messagerie et de données peuvent s'appliquer. Répondez HELP pour obtenir de l'aide, STOP pour vous désabonner. Consultez nos`,
  and: "et notre",
  submit: "M'inscrire",
  submitting: "Inscription en cours…",
  textInstead: (keyword: string, shortcode: string) => `ou envoyez ${keyword} au ${shortcode}`,
  mobileRequired: "Indiquez votre numéro de cellulaire.",
  mobileInvalid:
    "Indiquez un numéro de cellulaire à 10 chiffres des États-Unis ou du Canada, par exemple (555) 010-1234.",
  nameTooLong: "Utilisez au plus 100 caractères.",
  consentRequired: "Cochez la case pour accepter de recevoir des textos.",
  successHeading: "Vous êtes inscrit",
  successBody: (program: string, number: string) =>
    `${program} enverra des textos au ${number}. Répondez HELP pour obtenir de l'aide, STOP pour vous désabonner à tout moment.`,
  rejected:
    "Nous n'avons pas pu inscrire ce numéro. Il est peut-être déjà inscrit, ou il ne peut pas recevoir ces messages.",
  rejoin: (keyword: string, shortcode: string) =>
    `Si vous avez déjà répondu STOP, envoyez ${keyword} au ${shortcode} pour vous réinscrire.`,
  upstreamDown:
    "Le service d'inscription ne répond pas pour le moment. Vous n'êtes pas inscrit ; réessayez dans quelques minutes.",
  failed: "Une erreur s'est produite et vous n'êtes pas inscrit. Veuillez réessayer.",
};

export const goalFr: Messages["goal"] = {
  raised: (amount: string) => `${amount} recueillis`,
  ofGoal: (goal: string) => `sur notre objectif de ${goal}`,
  donors: (count: number) =>
    plural("fr", count, {
      one: `${count.toLocaleString("fr")} donateur`,
      other: `${count.toLocaleString("fr")} donateurs`,
    }),
  barLabel: "Progression vers l'objectif",
  barText: (raised: string, goal: string, percent: number) => `${raised} sur ${goal}, ${percent} pour cent`,
  unavailable: "La progression de la campagne n'est pas disponible pour le moment.",
};

export const buttonFr: Messages["button"] = {
  label: "Faire un don",
  close: "Fermer",
};

export const wallFr: Messages["wall"] = {
  label: "Derniers dons",
  anonymous: "Anonyme",
  credited: (name: string) => `pour ${name}`,
  empty: "Soyez la première personne à donner.",
  unavailable: "Les derniers dons ne sont pas disponibles pour le moment.",
  reconnecting: (age: string) => `Reconnexion… mis à jour ${age}`,
};

export const leaderboardFr: Messages["leaderboard"] = {
  teams: "Meilleures équipes",
  fundraisers: "Meilleurs collecteurs",
  ofGoal: (raised: string, goal: string) => `${raised} sur ${goal}`,
  raised: (raised: string) => `${raised} recueillis`,
  give: "Donner",
  giveTo: (name: string) => `Donner à ${name}`,
  empty: "Personne n'a encore rien recueilli.",
  unavailable: "Le classement n'est pas disponible pour le moment.",
  reconnecting: (age: string) => `Reconnexion… mis à jour ${age}`,
};

/** Every section (see en.ts). */
export const fr: Messages = {
  common: commonFr,
  donate: donateFr,
  donateLater: donateLaterFr,
  optin: optinFr,
  goal: goalFr,
  button: buttonFr,
  wall: wallFr,
  leaderboard: leaderboardFr,
};
