import { HONEYPOT_FIELD } from "../../contract/frame-fields";
import { cardBrand, cvvLength } from "../../contract/card";
import type { FrameMessages } from "../i18n/frame-en";
import { cardProblems, looksFinished, type CardFieldName } from "./card-input";
import { FIELDS, MAX_CVV, type CardFormState } from "./card-state";
import { attribute, el, text } from "./dom";

/** The card form's elements: built once, brought in line with the state by paintCardView. */
export interface CardView {
  form: HTMLFormElement;
  inputs: Record<CardFieldName, HTMLInputElement>;
  errors: Record<CardFieldName, HTMLParagraphElement>;
  hints: Partial<Record<CardFieldName, HTMLSpanElement>>;
  brandText: HTMLSpanElement;
  honeypot: HTMLInputElement;
  challengeRegion: HTMLElement;
  challengeStatus: HTMLOutputElement;
  /** Where Turnstile draws. */
  challengeBox: HTMLDivElement;
  /** Each fixed word's element and the message it shows: redrawn in another language (relabelCardView). */
  words: [HTMLElement, FixedWord][];
  /** The hidden submit button, named by the frame's title. */
  submit: HTMLButtonElement;
}

type FixedWord = "number" | "expiry" | "expiryHint" | "cvv" | "challengeTitle";

/** The card number, expiry and security code, a honeypot, the challenge's region, and a hidden submit. */
export function buildCardView(t: FrameMessages): CardView {
  const inputs = {} as CardView["inputs"];
  const errors = {} as CardView["errors"];
  const hints: CardView["hints"] = {};
  const words: CardView["words"] = [];
  const word = <E extends HTMLElement>(element: E, key: FixedWord) => {
    words.push([element, key]);
    return element;
  };
  const field = (
    name: CardFieldName,
    hint: "expiryHint" | "" | null,
    extraAttributes: Record<string, string | number>,
    extra?: Node,
  ) => {
    const input = (inputs[name] = el("input", {
      id: name,
      type: "text",
      inputmode: "numeric",
      ...extraAttributes,
    }));
    if (hint !== null) {
      const span = el("span", { id: `${name}-hint`, class: "hint" }, hint && t[hint]);
      hints[name] = hint ? word(span, hint) : span;
    }
    // Its line is kept even when empty, so an error never moves what is below.
    errors[name] = el("p", { id: `${name}-error`, class: "error" });
    return el(
      "div",
      { class: `field field-${name}` },
      el(
        "div",
        { class: "label-row" },
        word(el("label", { for: name }, t[name]), name),
        ...(extra ? [extra] : []),
      ),
      ...(hints[name] ? [hints[name]] : []),
      input,
      errors[name],
    );
  };

  const brandText = el("span", { class: "brand", "aria-live": "polite" });
  // A honeypot: off screen, out of the tab order and hidden from assistive technology, so only a
  // bot filling every field fills it.
  const honeypot = el("input", { name: HONEYPOT_FIELD, type: "text", tabindex: -1, autocomplete: "off" });
  const challengeStatus = el("output", {});
  const challengeBox = el("div", {});
  // Always in the page, hidden until the proxy asks: the challenge draws into it at once.
  const challengeRegion = el(
    "section",
    { class: "challenge", "aria-labelledby": "challenge-title", tabindex: -1, hidden: "" },
    word(el("p", { id: "challenge-title", class: "challenge-title" }, t.challengeTitle), "challengeTitle"),
    challengeStatus,
    challengeBox,
  );
  // Lets Enter submit a form of three text fields; the page's button is the visible one.
  const submit = el("button", { type: "submit", hidden: "", tabindex: -1, "aria-label": t.title });
  const form = el(
    "form",
    { class: "card", novalidate: "" },
    field("number", null, { name: "cardnumber", autocomplete: "cc-number", maxlength: 23 }, brandText),
    el(
      "div",
      { class: "row" },
      field("expiry", "expiryHint", { name: "exp-date", autocomplete: "cc-exp", maxlength: 7 }),
      // Its hint's text follows the brand (paintCardView).
      field("cvv", "", { name: "cvc", autocomplete: "cc-csc", maxlength: MAX_CVV }),
    ),
    el("div", { class: "hp", "aria-hidden": "true" }, honeypot),
    challengeRegion,
    submit,
  );
  return {
    form,
    inputs,
    errors,
    hints,
    brandText,
    honeypot,
    challengeRegion,
    challengeStatus,
    challengeBox,
    words,
    submit,
  };
}

/** Redraws the view's fixed words in another language (its inputs, and what was typed, untouched). */
export function relabelCardView(view: CardView, t: FrameMessages) {
  for (const [element, key] of view.words) text(element, t[key]);
  view.submit.setAttribute("aria-label", t.title);
}

/** Brings the DOM in line with the state. */
export function paintCardView(view: CardView, state: CardFormState, t: FrameMessages) {
  const { values, serverProblems, touched, busy, challenge } = state;
  const problems = cardProblems(values);
  const brand = cardBrand(values.number.replace(/\D/g, ""));
  const cvvDigits = cvvLength(brand);
  text(view.brandText, t.brand[brand]);
  text(view.hints.cvv!, t.cvvHint(cvvDigits));
  for (const name of FIELDS) {
    const input = view.inputs[name];
    const problem =
      serverProblems[name] ??
      (touched[name] || looksFinished(name, values) ? (problems[name] ?? null) : null);
    // The state wins over what the input holds, as a controlled input's does.
    if (input.value !== values[name]) input.value = values[name];
    input.readOnly = busy;
    attribute(input, "aria-invalid", problem ? "true" : null);
    const describedBy = [problem ? `${name}-error` : "", view.hints[name] ? `${name}-hint` : ""]
      .filter(Boolean)
      .join(" ");
    attribute(input, "aria-describedby", describedBy || null);
    text(view.errors[name], !problem ? "" : problem === "cvvInvalid" ? t.cvvInvalid(cvvDigits) : t[problem]);
  }
  view.challengeRegion.hidden = !challenge;
  text(view.challengeStatus, challenge ? t.challengeStatus[challenge] : "");
}
