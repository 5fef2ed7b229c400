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
  /** cover-fee="required": the fee is part of every gift. */
  feeIncluded: (fee: string) => `Includes ${fee} to cover the processing fee.`,
  feeIncludedAny: "Includes the processing fee.",
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
  /** The fundraiser or team the page names could not be looked up: the gift waits for the donor's word. */
  peerFailed: "This page's fundraiser or team did not load.",
  peerRetry: "Try again",
  /** layout="steps": each step's heading, with the count, and the buttons between. */
  steps: ["Step 1 of 3: Your gift", "Step 2 of 3: About you", "Step 3 of 3: Payment"],
  next: "Next",
  back: "Back",
  submit: (total: string, per: string) => (per ? `Donate ${total} ${per}` : `Donate ${total}`),
  submitting: "Processing your donation…",
  errors: {
    amount: "Choose or enter an amount.",
    amountRange: (min: string, max: string) => `Enter an amount between ${min} and ${max}.`,
    peer: "Choose a fundraiser or team from the list.",
    field: "Check this field.",
    /** A field the organization asks every donor to fill in, left empty. */
    required: "Fill in this field.",
  },
};
export type DonateMessages = typeof donateEn;
