import { donateTl } from "./donate-tl";
import { donateLaterTl } from "./donate-later-tl";
import type { Messages } from ".";

export { donateTl, donateLaterTl };

/** The Tagalog catalog, section by section, in en.ts's shape (a count does not change the noun). */

export const commonTl: Messages["common"] = {
  unavailable:
    "Hindi magagamit ang form na ito ngayon. Makipag-ugnayan sa organisasyon para mag-donate o mag-sign up.",
  optional: "opsiyonal",
  networkError: "Hindi maabot ang server. Suriin ang iyong koneksyon at subukang muli.",
  upstreamDown:
    "Hindi sumasagot ang serbisyo ngayon. Walang siningil; pakisubukang muli pagkalipas ng ilang minuto.",
  rateLimited:
    "Masyadong maraming pagsubok mula sa koneksyong ito. Maghintay ng ilang minuto at subukang muli.",
  fixErrors: (count: number) => `Pakiayos ang ${count} na field.`,
  firstName: "Pangalan",
  lastName: "Apelyido",
  firstNameRequired: "Ilagay ang iyong pangalan.",
  lastNameRequired: "Ilagay ang iyong apelyido.",
  terms: "Mga Tuntunin",
  privacy: "Patakaran sa Privacy",
  language: "Wika",
};

export const optinTl: Messages["optin"] = {
  heading: "Tumanggap ng mga text update",
  intro: (program: string) => `Mag-sign up para sa mga text message mula sa ${program}.`,
  allRequired: "Kailangang punan ang lahat ng field.",
  mobileLabel: "Numero ng mobile",
  mobileHint: "Isang mobile number sa US o Canada, gaya ng (555) 010-1234.",
  consentLabel: (program: string) => `Pumapayag akong tumanggap ng mga text message mula sa ${program}.`,
  disclosure: (program: string) =>
    `Sa pag-subscribe, pumapayag kang tumanggap ng paulit-ulit at awtomatikong text message mula sa ${program} sa ibinigay na mobile number. Hindi kondisyon ang pagpayag sa anumang pagbili o donasyon. Nag-iiba ang dalas ng mensahe. Maaaring may singil sa mensahe at data. Mag-reply ng HELP para sa tulong, STOP para huminto. Tingnan ang aming`,
  and: "at",
  submit: "Mag-subscribe",
  submitting: "Nag-su-subscribe…",
  textInstead: (keyword: string, shortcode: string) => `o i-text ang ${keyword} sa ${shortcode}`,
  mobileRequired: "Ilagay ang iyong mobile number.",
  mobileInvalid: "Maglagay ng 10-digit na mobile number sa US o Canada, gaya ng (555) 010-1234.",
  nameTooLong: "Gumamit ng 100 character o mas kaunti.",
  consentRequired: "Lagyan ng tsek ang kahon para pumayag na tumanggap ng mga text message.",
  successHeading: "Naka-subscribe ka na",
  successBody: (program: string, number: string) =>
    `Magte-text ang ${program} sa ${number}. Mag-reply ng HELP para sa tulong, STOP para huminto anumang oras.`,
  rejected:
    "Hindi namin ma-sign up ang numerong ito. Maaaring naka-subscribe na ito, o hindi ito makatanggap ng mga mensaheng ito.",
  rejoin: (keyword: string, shortcode: string) =>
    `Kung minsan kang nag-reply ng STOP, i-text ang ${keyword} sa ${shortcode} para sumali muli.`,
  upstreamDown:
    "Hindi sumasagot ang serbisyo ng pag-sign up ngayon. Hindi ka pa naka-subscribe; pakisubukang muli pagkalipas ng ilang minuto.",
  failed: "Nagkaroon ng problema at hindi ka pa naka-subscribe. Pakisubukang muli.",
};

export const goalTl: Messages["goal"] = {
  raised: (amount: string) => `${amount} ang nalikom`,
  ofGoal: (goal: string) => `sa aming layuning ${goal}`,
  donors: (count: number) => `${count.toLocaleString("fil")} donor ang nagbigay`,
  barLabel: "Pag-usad patungo sa layunin",
  barText: (raised: string, goal: string, percent: number) => `${raised} sa ${goal}, ${percent} porsiyento`,
  unavailable: "Hindi makita ngayon ang pag-usad ng kampanya.",
};

export const buttonTl: Messages["button"] = {
  label: "Mag-donate",
  close: "Isara",
};

export const wallTl: Messages["wall"] = {
  label: "Mga pinakabagong donasyon",
  anonymous: "Hindi nagpakilala",
  credited: (name: string) => `para kay ${name}`,
  empty: "Maging unang magbigay.",
  unavailable: "Hindi makita ngayon ang mga pinakabagong donasyon.",
  reconnecting: (age: string) => `Kumokonekta muli… na-update ${age}`,
};

export const leaderboardTl: Messages["leaderboard"] = {
  teams: "Mga nangungunang koponan",
  fundraisers: "Mga nangungunang fundraiser",
  ofGoal: (raised: string, goal: string) => `${raised} sa ${goal}`,
  raised: (raised: string) => `${raised} ang nalikom`,
  give: "Magbigay",
  giveTo: (name: string) => `Magbigay kay ${name}`,
  empty: "Wala pang nakalikom ng anuman.",
  unavailable: "Hindi makita ngayon ang leaderboard.",
  reconnecting: (age: string) => `Kumokonekta muli… na-update ${age}`,
};

/** Every section (see en.ts). */
export const tl: Messages = {
  common: commonTl,
  donate: donateTl,
  donateLater: donateLaterTl,
  optin: optinTl,
  goal: goalTl,
  button: buttonTl,
  wall: wallTl,
  leaderboard: leaderboardTl,
};
