/**
 * The `donateLater` section of the English catalog: what <givekit-donate> says after its first
 * step, or in it once the donor has acted (the monthly invitation; the donor's details, the card,
 * the options, how a donation ends). Its own file, fetched
 * with the part of the form that says it (widget/donate/later.ts), after the first step works.
 */
export const donateLaterEn = {
  /** monthly-prompt: "Make it $34 a month instead?", and its two answers. */
  monthlyPrompt: (amount: string) => `Make it ${amount} a month instead?`,
  monthlyPromptWhy: "Monthly gifts let us plan ahead.",
  monthlyYes: (amount: string) => `Yes, ${amount} monthly`,
  monthlyNo: (amount: string) => `No, give ${amount} once`,
  donorLegend: "Your details",
  /** `fields="full-name"`: the one name field, instead of first and last. */
  fullName: "Full name",
  email: "E-mail",
  phone: "Phone",
  street: "Street address",
  city: "City",
  state: "State or province",
  country: "Country",
  zip: "ZIP code",
  postalCode: "Postal code",
  cardLegend: "Card",
  cardFrameTitle: "Card details",
  cardFrameFailed: "The card form could not load. Please reload the page, or give another way.",
  optionsLegend: "Options",
  anonymous: "Make my gift anonymous",
  pledgeWall: "Show my gift on the pledge wall",
  memo: "Message",
  dedicate: "Dedicate my gift to someone",
  dedicationKind: "Dedication",
  dedicationKinds: { honor: "In honor of", memory: "In memory of" },
  dedicationName: "Their name",
  dedicationEmail: "E-mail someone about my gift",
  smsOptIn: (program: string) => `Text me updates from ${program}`,
  smsDisclosure: (program: string) =>
    `Optional. By checking this box you agree to receive recurring automated text messages from ${program} at the phone number above. Consent is not a condition of donating. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel.`,
  smsProgramFallback: "this organization",
  errors: {
    email: "Enter an e-mail address such as name@example.org.",
    phone: "Enter a US or Canadian phone number.",
    smsPhone: "Enter your mobile number to get text messages.",
    zip: "Enter a ZIP code such as 12345.",
    postalCode: "Enter a postal code.",
    country: "Choose a country.",
    street: "Shorten the street address.",
    city: "Shorten the city.",
    state: "Shorten the state or province.",
    memo: (max: number) => `Keep the message under ${max} characters.`,
    dedicationName: "Enter the name of the person your gift honors or remembers.",
    dedicationNameInvalid: (max: number) => `Enter a name of at most ${max} characters, without < or >.`,
    dedicationTooLong: "Shorten the message or the dedication: together they are too long.",
    card: "Check your card details.",
  },
  outcome: {
    successTitle: "Thank you!",
    success: (amount: string, per: string) =>
      per ? `Your donation of ${amount} ${per} went through.` : `Your donation of ${amount} went through.`,
    transaction: "Transaction ID",
    dedicated: {
      honor: (name: string) => `In honor of ${name}.`,
      memory: (name: string) => `In memory of ${name}.`,
    },
    again: "Make another donation",
    declined: "Your card was declined, so nothing was charged. Check the card details or use another card.",
    paymentFailed: "The payment could not be processed, so nothing was charged. Please try another card.",
    pendingTitle: "We could not confirm your donation",
    pending:
      "It may have gone through, so please do not donate again. If you contact the organization, give them this reference:",
    reference: "Reference",
    asking: "We are checking with the payment service; this page will update by itself.",
    notFound: "We can no longer look this donation up. Please give the organization this reference.",
    gaveUp:
      "We still cannot confirm it. Please give the organization this reference before you donate again.",
    notCharged: "Your donation did not go through, so nothing was charged. You can try again.",
    inProgress: "Your donation is still being processed. Wait a moment, then try again.",
    rateLimited: "Too many gifts from this network right now. Try again in a minute.",
    checking: "Checking… If this takes long, try again in a minute, or switch off Wi-Fi.",
    tooManyDeclines:
      "Too many declined cards from this network, so nothing was charged. Please try again later.",
    invalidPeer: "That fundraiser or team is not part of this campaign. Choose another one or remove it.",
    failed: "Something went wrong on our side. Please try again later.",
  },
};
export type DonateLaterMessages = typeof donateLaterEn;
