import type { FromFrameMessage } from "../../contract/frame";
import { cardProblems, normalizeExpiry, type CardFieldName } from "./card-input";
import type { CardEdits } from "./card-edit";
import { FIELDS, type CardFormState, type ChallengeStatus, type Problems } from "./card-state";
import type { CardView } from "./card-view";
import type { FormSessionSource } from "./form-session";
import { requestToken, type TokenAnswer } from "./token-client";

/** The proxy's names for the card fields → the frame's. */
const SERVER_FIELDS: Record<string, CardFieldName> = {
  card_number: "number",
  expiration_date: "expiry",
  cvv: "cvv",
};
const SERVER_PROBLEMS: Problems = { number: "numberInvalid", expiry: "expiryInvalid", cvv: "cvvInvalid" };

interface TokenizeDeps {
  state: CardFormState;
  view: CardView;
  edits: CardEdits;
  send: (message: FromFrameMessage) => void;
  paint: () => void;
  /** The frame's language, for the challenge's own words. */
  locale: string;
  campaign: { shortcode: string; keyword: string } | null;
  origin?: string;
  formSession: FormSessionSource;
}

/**
 * The page's tokenize request: the card, checked here, goes in the one request to the proxy's
 * /v1/payment-tokens (and again with a challenge's proof if the proxy asks for one); the page
 * gets back only a token, brand and last 4, or what was refused.
 */
export function cardTokenizer(deps: TokenizeDeps) {
  const { state, view, edits, send, paint } = deps;

  function setChallenge(status: ChallengeStatus | null) {
    state.challenge = status;
    paint();
    // The challenge region takes the focus as it appears, so its name and status are read out.
    if (status === "shown") view.challengeRegion.focus();
  }

  function answer(message: TokenAnswer) {
    if (message.type === "givekit:token-error") {
      const refused: Problems = {};
      for (const path of Object.keys(message.errors ?? {})) {
        const name = SERVER_FIELDS[path];
        if (name) refused[name] = SERVER_PROBLEMS[name];
      }
      state.serverProblems = refused;
      paint();
    }
    send({ ...message, id: state.answerTo ?? message.id });
    state.answerTo = null;
  }

  return async function tokenize(id: string) {
    // A tokenization under way (its challenge on screen, say) answers this request too: one card, one answer.
    if (state.answerTo) {
      state.answerTo = id;
      return;
    }
    const current = edits.sync();
    edits.touch(FIELDS);
    if (Object.keys(cardProblems(current)).length > 0) {
      send({ type: "givekit:token-error", id, code: "validation_failed" });
      return;
    }
    state.answerTo = id;
    state.busy = true;
    setChallenge(null);
    const card = {
      card_number: current.number.replace(/\D/g, ""),
      cvv: current.cvv,
      expiration_date: normalizeExpiry(current.expiry) ?? current.expiry,
    };
    const { campaign, origin, formSession, locale } = deps;
    const context = {
      honeypot: view.honeypot.value,
      campaign,
      origin,
      formSession: await formSession.current(),
    };
    let reply = await requestToken(id, card, context);
    // Scrutiny: the proxy asks for a proof of work (solved here, at once) or, where configured, Turnstile.
    for (let round = 0; reply.challenge && round < 3; round++) {
      const asked = reply.challenge;
      setChallenge(asked.provider === "pow" ? "solving" : "shown");
      try {
        // One turn for the region to show before the challenge draws into it.
        await new Promise((resolve) => setTimeout(resolve));
        const proof =
          asked.provider === "pow"
            ? await (await import("./pow")).solvePow(asked)
            : await (await import("./turnstile")).solveChallenge(view.challengeBox, asked, locale);
        setChallenge("checking");
        reply = await requestToken(id, card, { ...context, proof });
        setChallenge(reply.answer.type === "givekit:token" ? null : "failed");
      } catch {
        setChallenge("failed");
        reply = { answer: { type: "givekit:token-error", id, code: "challenge_failed" }, challenge: null };
      }
    }
    state.busy = false;
    paint();
    answer(reply.answer);
  };
}
