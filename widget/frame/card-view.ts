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
}

/** The card number, expiry and security code, a honeypot, the challenge's region, and a hidden submit. */
export function buildCardView(t: FrameMessages): CardView {
  const inputs = {} as CardView["inputs"];
  const errors = {} as CardView["errors"];
  const hints: CardView["hints"] = {};
  const field = (
    name: CardFieldName,
    label: string,
    hint: string | null,
    extraAttributes: Record<string, string | number>,
    extra?: Node,
  ) => {
    const input = (inputs[name] = el("input", {
      id: name,
      type: "text",
      inputmode: "numeric",
      ...extraAttributes,
    }));
    if (hint !== null) hints[name] = el("span", { id: `${name}-hint`, class: "hint" }, hint);
    // Its line is kept even when empty, so an error never moves what is below.
    errors[name] = el("p", { id: `${name}-error`, class: "error" });
    return el(
      "div",
      { class: `field field-${name}` },
      el("div", { class: "label-row" }, el("label", { for: name }, label), ...(extra ? [extra] : [])),
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
    el("p", { id: "challenge-title", class: "challenge-title" }, t.challengeTitle),
    challengeStatus,
    challengeBox,
  );
  const form = el(
    "form",
    { class: "card", novalidate: "" },
    field(
      "number",
      t.number,
      null,
      { name: "cardnumber", autocomplete: "cc-number", maxlength: 23 },
      brandText,
    ),
    el(
      "div",
      { class: "row" },
      field("expiry", t.expiry, t.expiryHint, { name: "exp-date", autocomplete: "cc-exp", maxlength: 7 }),
      // Its hint's text follows the brand (paintCardView).
      field("cvv", t.cvv, "", { name: "cvc", autocomplete: "cc-csc", maxlength: MAX_CVV }),
    ),
    el("div", { class: "hp", "aria-hidden": "true" }, honeypot),
    challengeRegion,
    // Lets Enter submit a form of three text fields; the page's button is the visible one.
    el("button", { type: "submit", hidden: "", tabindex: -1, "aria-label": t.title }),
  );
  return { form, inputs, errors, hints, brandText, honeypot, challengeRegion, challengeStatus, challengeBox };
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

/**
 * Redraws the view's own words in another language (the form's language switch): its labels, the
 * expiry's hint, the challenge's title and the hidden submit's name, found where buildCardView
 * put them; the inputs, and what was typed, untouched. paintCardView then words the rest.
 */
export function relabelCardView({ form }: CardView, t: FrameMessages) {
  const find = (selector: string) => form.querySelector(selector)!;
  for (const name of FIELDS) text(find(`label[for=${name}]`), t[name]);
  text(find("#expiry-hint"), t.expiryHint);
  text(find("#challenge-title"), t.challengeTitle);
  find("[type=submit]").setAttribute("aria-label", t.title);
}
