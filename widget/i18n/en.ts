/**
 * Every visible English string. Sections: `common` (shared), `donate` (<givekit-donate>
 * and the card frame), `optin` (<givekit-optin>). es.ts must have the same shape.
 */
export const en = {
  common: {
    unavailable: "This form is not available right now. Please contact the organization to give or sign up.",
    required: "Required",
    optional: "optional",
    sending: "Sending…",
    tryAgain: "Try again",
    networkError: "We could not reach the server. Check your connection and try again.",
    upstreamDown:
      "The service is not answering right now. Nothing was charged; please try again in a few minutes.",
    rateLimited: "Too many attempts from this connection. Please wait a few minutes and try again.",
    fixErrors: (count: number) => (count === 1 ? "Please fix 1 field." : `Please fix ${count} fields.`),
  },
  donate: {},
  optin: {},
};
