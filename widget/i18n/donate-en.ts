/**
 * The `donate` section of the English catalog: <givekit-donate>. The card frame has its own
 * catalog (frame-en.ts), which only the frame loads.
 */
export const donateEn = {
  heading: "Make a donation",
  loading: "Loading the donation form…",
  frequencyLegend: "How often",
  frequency: { once: "Once", monthly: "Monthly", quarterly: "Quarterly", annually: "Yearly" },
  /** After an amount: "$26.05 monthly". */
  per: { once: "", monthly: "monthly", quarterly: "every quarter", annually: "every year" },
  amountLegend: "Amount",
  otherAmount: "Other",
  otherAmountLabel: "Other amount",
  amountRange: (min: string, max: string) => `Between ${min} and ${max}.`,
  coverFee: (fee: string) => `Add ${fee} to cover the processing fee`,
  coverFeeAny: "Add the processing fee to my gift",
  peerLabel: "Give in support of a fundraiser or team",
  peerHint: "Type a name, then choose from the list.",
  peerSearching: "Searching…",
  peerNone: "No fundraiser or team matches.",
  peerCount: (count: number) => (count === 1 ? "1 match." : `${count} matches.`),
  /** Before a fundraiser's team ("Team Night Owls"), and after a team in the list ("Night Owls · Team"). */
  peerTeam: "Team",
  /** A name that already says it is a team ("Team Sunrise") is shown as it is, with no label. */
  peerTeamWord: /\bteam\b/i,
  peerSupporting: (name: string) => `Your gift supports ${name}.`,
  peerRaised: (raised: string, goal: string | null) =>
    goal ? `${raised} raised of ${goal}.` : `${raised} raised so far.`,
  peerRemove: "Remove",
  donorLegend: "Your details",
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
  smsOptIn: (program: string) => `Text me updates from ${program}`,
  smsDisclosure: (program: string) =>
    `Optional. By checking this box you agree to receive recurring automated text messages from ${program} at the phone number above. Consent is not a condition of donating. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel.`,
  smsProgramFallback: "this organization",
  /** layout="steps": each step's heading, with the count, and the buttons between. */
  steps: ["Step 1 of 3: Your gift", "Step 2 of 3: About you", "Step 3 of 3: Payment"],
  next: "Next",
  back: "Back",
  submit: (total: string, per: string) => (per ? `Donate ${total} ${per}` : `Donate ${total}`),
  submitting: "Processing your donation…",
  errors: {
    amount: "Choose or enter an amount.",
    amountRange: (min: string, max: string) => `Enter an amount between ${min} and ${max}.`,
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
    peer: "Choose a fundraiser or team from the list.",
    card: "Check your card details.",
    field: "Check this field.",
    /** A field the organization asks every donor to fill in, left empty. */
    required: "Fill in this field.",
  },
  outcome: {
    successTitle: "Thank you!",
    success: (amount: string, per: string) =>
      per ? `Your donation of ${amount} ${per} went through.` : `Your donation of ${amount} went through.`,
    transaction: "Transaction ID",
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
    tooManyDeclines:
      "Too many declined cards from this network, so nothing was charged. Please try again later.",
    invalidPeer: "That fundraiser or team is not part of this campaign. Choose another one or remove it.",
    failed: "Something went wrong on our side. Please try again later.",
  },
};
export type DonateMessages = typeof donateEn;
