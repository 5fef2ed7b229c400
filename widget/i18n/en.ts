import { donateEn } from "./donate-en";
import { donateLaterEn } from "./donate-later-en";

export { donateEn, donateLaterEn };

/**
 * Every visible English string of the elements, by section: `common` (shared), `donate`
 * (<givekit-donate>'s first step), `donateLater` (the rest of it), `optin` (<givekit-optin>), `goal` (<givekit-goal>), `button`
 * (<givekit-button>). Each section is its own
 * export, so a catalog of catalogs/ takes only the sections its elements show. es.ts has the same shape.
 */
export const commonEn = {
  unavailable: "This form is not available right now. Please contact the organization to give or sign up.",
  optional: "optional",
  networkError: "We could not reach the server. Check your connection and try again.",
  upstreamDown:
    "The service is not answering right now. Nothing was charged; please try again in a few minutes.",
  rateLimited: "Too many attempts from this connection. Please wait a few minutes and try again.",
  fixErrors: (count: number) => (count === 1 ? "Please fix 1 field." : `Please fix ${count} fields.`),
  firstName: "First name",
  lastName: "Last name",
  firstNameRequired: "Enter your first name.",
  lastNameRequired: "Enter your last name.",
  terms: "Terms",
  privacy: "Privacy Policy",
  /** The language switch's name (its options are each language's own name). */
  language: "Language",
};

export const optinEn = {
  heading: "Get text updates",
  intro: (program: string) => `Sign up for text messages from ${program}.`,
  allRequired: "All fields are required.",
  mobileLabel: "Mobile number",
  mobileHint: "A US or Canadian mobile number, such as (555) 010-1234.",
  consentLabel: (program: string) => `I agree to receive text messages from ${program}.`,
  /** Shown above the button, with the Terms and Privacy links, and sent as the consent record's text. */
  disclosure: (program: string) =>
    `By subscribing, you agree to receive recurring automated text messages from ${program} at the mobile number provided. Consent is not a condition of any purchase or donation. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel. See our`,
  and: "and",
  submit: "Subscribe",
  submitting: "Subscribing…",
  textInstead: (keyword: string, shortcode: string) => `or text ${keyword} to ${shortcode}`,
  mobileRequired: "Enter your mobile number.",
  mobileInvalid: "Enter a 10-digit US or Canadian mobile number, such as (555) 010-1234.",
  nameTooLong: "Use 100 characters or fewer.",
  consentRequired: "Tick the box to agree to receive text messages.",
  successHeading: "You're subscribed",
  successBody: (program: string, number: string) =>
    `${program} will text ${number}. Reply HELP for help, STOP to cancel at any time.`,
  rejected:
    "We could not sign up this number. It may already be subscribed, or it cannot receive these messages.",
  rejoin: (keyword: string, shortcode: string) =>
    `If you once replied STOP, text ${keyword} to ${shortcode} to join again.`,
  upstreamDown:
    "The sign-up service is not answering right now. You have not been subscribed; please try again in a few minutes.",
  failed: "Something went wrong and you have not been subscribed. Please try again.",
};

export const goalEn = {
  raised: (amount: string) => `${amount} raised`,
  ofGoal: (goal: string) => `of our ${goal} goal`,
  donors: (count: number) => (count === 1 ? "1 donor" : `${count.toLocaleString("en-US")} donors`),
  barLabel: "Progress toward the goal",
  barText: (raised: string, goal: string, percent: number) => `${raised} of ${goal}, ${percent} percent`,
  unavailable: "The campaign's progress is not available right now.",
};

export const buttonEn = {
  /** The button's label when the page gives none (`label`). */
  label: "Donate",
  /** The accessible name of the dialog's close button (it shows ×). */
  close: "Close",
};

export const wallEn = {
  /** The list's accessible name. */
  label: "Latest gifts",
  /** Shown for a donor who asked not to be named (the proxy sends "Anonymous"). */
  anonymous: "Anonymous",
  /** "for Team Sunrise": the fundraiser or team a gift credits. */
  credited: (name: string) => `for ${name}`,
  empty: "Be the first to give.",
  unavailable: "The latest gifts are not available right now.",
  /** Over the last gifts when they are not live: "Reconnecting… updated 2 minutes ago". */
  reconnecting: (age: string) => `Reconnecting… updated ${age}`,
};

export const leaderboardEn = {
  teams: "Top teams",
  fundraisers: "Top fundraisers",
  /** The bar's text: "$1,200 of $5,000". */
  ofGoal: (raised: string, goal: string) => `${raised} of ${goal}`,
  raised: (raised: string) => `${raised} raised`,
  /** The link's text; its accessible name adds the peer's name. */
  give: "Give",
  giveTo: (name: string) => `Give to ${name}`,
  empty: "No one has raised anything yet.",
  unavailable: "The leaderboard is not available right now.",
  /** Over the last figures when they are not live (as the wall's). */
  reconnecting: (age: string) => `Reconnecting… updated ${age}`,
};

/** Every section: the catalog of a page with several kinds of element, and of givekit.js. */
export const en = {
  common: commonEn,
  donate: donateEn,
  donateLater: donateLaterEn,
  optin: optinEn,
  goal: goalEn,
  button: buttonEn,
  wall: wallEn,
  leaderboard: leaderboardEn,
};
