import { donateHt } from "./donate-ht";
import { donateLaterHt } from "./donate-later-ht";
import type { Messages } from ".";

export { donateHt, donateLaterHt };

/** The Haitian Creole catalog, section by section, in en.ts's shape (a noun does not change with its count). */

export const commonHt: Messages["common"] = {
  unavailable: "Fòm sa a pa disponib kounye a. Tanpri kontakte òganizasyon an pou bay oswa pou enskri.",
  optional: "si ou vle",
  networkError: "Nou pa ka jwenn sèvè a. Verifye koneksyon ou epi eseye ankò.",
  upstreamDown: "Sèvis la pa reponn kounye a. Yo pa chaje w anyen; tanpri eseye ankò nan kèk minit.",
  rateLimited: "Twòp esè ki soti nan koneksyon sa a. Tanpri tann kèk minit epi eseye ankò.",
  fixErrors: (count: number) => `Tanpri korije ${count} chan.`,
  firstName: "Prenon",
  lastName: "Non fanmi",
  firstNameRequired: "Antre prenon w.",
  lastNameRequired: "Antre non fanmi w.",
  terms: "Kondisyon yo",
  privacy: "Politik konfidansyalite",
  language: "Lang",
};

export const optinHt: Messages["optin"] = {
  heading: "Resevwa nouvèl pa tèks",
  intro: (program: string) => `Enskri pou resevwa mesaj tèks nan men ${program}.`,
  allRequired: "Ou dwe ranpli tout chan yo.",
  mobileLabel: "Nimewo selilè",
  mobileHint: "Yon nimewo selilè Etazini oswa Kanada, tankou (555) 010-1234.",
  consentLabel: (program: string) => `Mwen dakò resevwa mesaj tèks nan men ${program}.`,
  disclosure: (program: string) =>
    `Lè w enskri, ou dakò resevwa mesaj tèks otomatik regilye nan men ${program} sou nimewo selilè ou bay la. Konsantman w pa yon kondisyon pou okenn acha oswa don. Kantite mesaj yo ka varye. Frè pou mesaj ak done ka aplike. Reponn HELP pou jwenn èd, STOP pou anile. Gade`,
  and: "ak",
  submit: "Enskri",
  submitting: "N ap enskri w…",
  textInstead: (keyword: string, shortcode: string) => `oswa voye ${keyword} bay ${shortcode}`,
  mobileRequired: "Antre nimewo selilè w.",
  mobileInvalid: "Antre yon nimewo selilè Etazini oswa Kanada ki gen 10 chif, tankou (555) 010-1234.",
  nameTooLong: "Sèvi ak 100 karaktè oswa mwens.",
  consentRequired: "Tcheke bwat la pou w dakò resevwa mesaj tèks.",
  successHeading: "Ou enskri",
  successBody: (program: string, number: string) =>
    `${program} ap voye tèks bay ${number}. Reponn HELP pou jwenn èd, STOP pou anile nenpòt lè.`,
  rejected: "Nou pa t ka enskri nimewo sa a. Petèt li deja enskri, oswa li pa ka resevwa mesaj sa yo.",
  rejoin: (keyword: string, shortcode: string) =>
    `Si w te janm reponn STOP, voye ${keyword} bay ${shortcode} pou w enskri ankò.`,
  upstreamDown: "Sèvis enskripsyon an pa reponn kounye a. Ou pa enskri; tanpri eseye ankò nan kèk minit.",
  failed: "Yon bagay mal pase epi ou pa enskri. Tanpri eseye ankò.",
};

export const goalHt: Messages["goal"] = {
  raised: (amount: string) => `${amount} ranmase`,
  ofGoal: (goal: string) => `sou objektif nou an ki se ${goal}`,
  donors: (count: number) => `${count.toLocaleString("fr-HT")} donatè`,
  barLabel: "Pwogrè nou fè pou rive nan objektif la",
  barText: (raised: string, goal: string, percent: number) => `${raised} sou ${goal}, ${percent} pousan`,
  unavailable: "Pwogrè kanpay la pa disponib kounye a.",
};

export const buttonHt: Messages["button"] = {
  label: "Bay",
  close: "Fèmen",
};

export const wallHt: Messages["wall"] = {
  label: "Dènye don yo",
  anonymous: "Anonim",
  credited: (name: string) => `pou ${name}`,
  empty: "Se ou ki ka premye moun ki bay.",
  unavailable: "Dènye don yo pa disponib kounye a.",
  reconnecting: (age: string) => `N ap rekonekte… mizajou ${age}`,
};

export const leaderboardHt: Messages["leaderboard"] = {
  teams: "Pi bon ekip yo",
  fundraisers: "Pi bon moun k ap ranmase lajan yo",
  ofGoal: (raised: string, goal: string) => `${raised} sou ${goal}`,
  raised: (raised: string) => `${raised} ranmase`,
  give: "Bay",
  giveTo: (name: string) => `Bay pou ${name}`,
  empty: "Pèsonn poko ranmase anyen.",
  unavailable: "Klasman an pa disponib kounye a.",
  reconnecting: (age: string) => `N ap rekonekte… mizajou ${age}`,
};

/** Every section (see en.ts). */
export const ht: Messages = {
  common: commonHt,
  donate: donateHt,
  donateLater: donateLaterHt,
  optin: optinHt,
  goal: goalHt,
  button: buttonHt,
  wall: wallHt,
  leaderboard: leaderboardHt,
};
