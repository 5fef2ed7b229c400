import type { CardFieldName, CardProblem, CardValues } from "./card-input";

export const EMPTY: CardValues = { number: "", expiry: "", cvv: "" };
export const FIELDS: CardFieldName[] = ["number", "expiry", "cvv"];
export const MAX_CVV = 4;

/** Where the challenge is: asked and shown, being checked with the proxy, or failed. */
export type ChallengeStatus = "solving" | "shown" | "checking" | "failed";
export type Problems = Partial<Record<CardFieldName, CardProblem>>;

/** What the card form knows, read by the page's messages and the donor's events alike. */
export interface CardFormState {
  /** The card as the donor left it. */
  values: CardValues;
  touched: Partial<Record<CardFieldName, boolean>>;
  /** The proxy's refusals, each until its field is edited. */
  serverProblems: Problems;
  busy: boolean;
  challenge: ChallengeStatus | null;
  /** The page's latest tokenize request: a challenge outlives the request that met it. */
  answerTo: string | null;
}

export const emptyCardFormState = (): CardFormState => ({
  values: EMPTY,
  touched: {},
  serverProblems: {},
  busy: false,
  challenge: null,
  answerTo: null,
});
