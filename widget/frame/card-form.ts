import type { FromFrameMessage, ToFrameMessage } from "../../contract/frame";
import type { FrameMessages } from "../i18n/frame-en";
import { cardEdits } from "./card-edit";
import { emptyCardFormState } from "./card-state";
import { cardTokenizer } from "./card-tokenize";
import { buildCardView, paintCardView, relabelCardView } from "./card-view";
import type { FormEvents } from "./form-events";
import type { FormSessionSource } from "./form-session";
import type { ParentChannel } from "./parent-channel";

export interface CardFormProps {
  channel: ParentChannel;
  t: FrameMessages;
  /** The frame's language, for the challenge's own words. */
  locale: string;
  /** The campaign the page opened the frame for (its address says), or null. */
  campaign: { shortcode: string; keyword: string } | null;
  /** The page's origin the frame was opened for (its form session is bound to it). */
  origin?: string;
  /** The frame's form session (openFormSession). */
  formSession: FormSessionSource;
  /** The form's steps, counted (form-events.ts); none in a frame that counts nothing. */
  formEvents?: Pick<FormEvents, "about" | "reach" | "stop" | "close">;
  /**
   * The frame's words in another language, as the form's language switch asks (start.ts's
   * frameWords): the language it could load (English when not) and its words.
   */
  wordsIn?: (locale: string) => Promise<[string, FrameMessages]>;
  /** Takes the form's look, as the page sends it (start.ts). */
  applyTheme?: (theme: Omit<Extract<ToFrameMessage, { type: "givekit:theme" }>, "type">) => void;
}

/**
 * The card number, expiry and security code, built into `root` (card-view.ts), kept as the donor
 * edits them (card-edit.ts). They never leave this frame except in the one request to the proxy's
 * /v1/payment-tokens (card-tokenize.ts); the page gets back only a token, brand and last 4.
 * Returns what takes the form away again.
 */
export function mountCardForm(
  root: HTMLElement,
  {
    channel,
    t: words,
    locale,
    campaign,
    origin,
    formSession,
    formEvents,
    wordsIn,
    applyTheme,
  }: CardFormProps,
): () => void {
  let t = words;
  const state = emptyCardFormState();
  const view = buildCardView(t);
  const paint = () => paintCardView(view, state, t);
  const send = (message: FromFrameMessage) => {
    // A card the donor has entered whole is a step of the form's.
    if (message.type === "givekit:card-state" && message.complete) formEvents?.reach("card");
    channel.send(message);
  };
  const edits = cardEdits({ state, view, send, paint });
  // Read at each attempt: a challenge after a language switch speaks the new language.
  const deps = { state, view, edits, send, paint, locale, campaign, origin, formSession };
  const tokenize = cardTokenizer(deps);

  view.form.addEventListener("submit", (event) => {
    event.preventDefault();
    edits.sync();
    // Enter in a card field gives, as it does in the page's own fields.
    send({ type: "givekit:submit" });
  });

  root.append(view.form);
  paint();

  send({ type: "givekit:frame-ready" });
  edits.report(state.values);
  // Measured only once the frame's stylesheet applies: unstyled, the fields stack about 200 px
  // taller, and a page that took that height would shrink the frame again as the donor scrolls.
  // The built page has it inline (a <style>, there before this script runs); a linked one (the
  // dev server's) may still be loading.
  const stylesheet = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
  // With the page's look to come (its text size sets the fields' height), measured once it has.
  let themed = !applyTheme;
  const measure = () => {
    if ((stylesheet && !stylesheet.sheet) || !themed) return;
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    // Not shown (widget.js opens the frame before the form shows it, and a form that has given
    // shows it no more): no width, no height worth keeping.
    if (innerWidth > 0 && height > 0) send({ type: "givekit:resize", height });
  };
  stylesheet?.addEventListener("load", measure);
  measure();
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
  observer?.observe(document.body);

  const stopListening = channel.listen((message: ToFrameMessage) => {
    if (message.type === "givekit:tokenize") {
      // Asked for a token: the page has checked the gift and sends it.
      formEvents?.reach("sent");
      void tokenize(message.id);
    } else if (message.type === "givekit:step") {
      if (message.step) formEvents?.reach(message.step);
      if (message.code) formEvents?.stop(message.code, message.field);
    } else if (message.type === "givekit:locale") {
      // Labels, hints, errors and the challenge's words in the new language; the state, with what
      // was typed, stays as it is.
      void wordsIn?.(message.locale).then(async (next) => {
        [deps.locale, t] = next;
        relabelCardView(view, t);
        paint();
        measure();
        // A Turnstile challenge on screen speaks its language only as it draws: drawn again.
        if (state.challenge === "shown") (await import("./turnstile")).speakChallenge(deps.locale);
      });
    } else if (message.type === "givekit:focus") edits.focusFirstProblem(true);
    // The donor has just come to the card: nothing is wrong yet.
    else if (message.type === "givekit:start") edits.focusFirstProblem(false);
    else if (message.type === "givekit:theme") {
      const { type: _, width, channel: source, ...theme } = message;
      applyTheme?.(theme);
      // The form shows (it sends its look as it does): the first step, counted.
      formEvents?.about(width, source);
      formEvents?.reach("shown");
      themed = true;
      // The page may have opened this frame before it listened: it hears the card's state now.
      edits.report(state.values);
      measure();
    } else {
      // The page clears the card after a gift (and for the next one): the thank-you is shown.
      formEvents?.reach("thanks");
      edits.clear();
    }
  });

  return () => {
    formEvents?.close();
    stopListening();
    stylesheet?.removeEventListener("load", measure);
    observer?.disconnect();
    view.form.remove();
  };
}
