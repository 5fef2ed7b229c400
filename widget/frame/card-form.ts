import { HONEYPOT_FIELD } from "../../contract/api";
import { cardBrand, cvvLength } from "../../contract/card";
import type { ToFrameMessage } from "../../contract/frame";
import type { FrameMessages } from "../i18n/frame-en";
import {
  cardProblems,
  caretAfterDigits,
  formatCardNumber,
  formatExpiryInput,
  looksFinished,
  maxDigits,
  normalizeExpiry,
  type CardFieldName,
  type CardProblem,
  type CardValues,
} from "./card-input";
import type { ParentChannel } from "./parent-channel";
import type { FormSessionSource } from "./form-session";
import { requestToken, type TokenAnswer } from "./token-client";

const EMPTY: CardValues = { number: "", expiry: "", cvv: "" };
const FIELDS: CardFieldName[] = ["number", "expiry", "cvv"];
const MAX_CVV = 4;
/** The proxy's names for the card fields → the frame's. */
const SERVER_FIELDS: Record<string, CardFieldName> = {
  card_number: "number",
  expiration_date: "expiry",
  cvv: "cvv",
};
const SERVER_PROBLEMS: Record<CardFieldName, CardProblem> = {
  number: "numberInvalid",
  expiry: "expiryInvalid",
  cvv: "cvvInvalid",
};

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
  /** Takes the form's look, as the page sends it (start.ts). */
  applyTheme?: (theme: Omit<Extract<ToFrameMessage, { type: "givekit:theme" }>, "type">) => void;
}

/** Where the challenge is: asked and shown, being checked with the proxy, or failed. */
type ChallengeStatus = "solving" | "shown" | "checking" | "failed";
type Problems = Partial<Record<CardFieldName, CardProblem>>;

/** An element with these attributes and children. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** Sets an attribute, or removes it for null. */
function attribute(element: Element, name: string, value: string | null) {
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}

/** Changes a text only when it differs: a live region would announce a text replaced by itself. */
function text(node: Node, value: string) {
  if (node.textContent !== value) node.textContent = value;
}

/** A field's value as the frame shows it: spaced, shaped as a date, digits only. */
function shape(field: CardFieldName, value: string, deleting: boolean): string {
  if (field === "number") {
    const typed = value.replace(/\D/g, "");
    const kind = cardBrand(typed);
    return formatCardNumber(typed.slice(0, maxDigits(kind)), kind);
  }
  if (field === "expiry") return formatExpiryInput(value, deleting);
  return value.replace(/\D/g, "").slice(0, MAX_CVV);
}

/**
 * The card number, expiry and security code, built into `root`. They never leave this frame except
 * in the one request to the proxy's /v1/payment-tokens; the page gets back only a token, brand and
 * last 4. Returns what takes the form away again.
 */
export function mountCardForm(
  root: HTMLElement,
  { channel, t, locale, campaign, origin, formSession, applyTheme }: CardFormProps,
): () => void {
  /** The card as the donor left it: read by messages and events alike. */
  let values = EMPTY;
  let touched: Partial<Record<CardFieldName, boolean>> = {};
  let serverProblems: Problems = {};
  let busy = false;
  let challenge: ChallengeStatus | null = null;
  /** The page's latest tokenize request: a challenge outlives the request that met it. */
  let answerTo: string | null = null;

  const inputs = {} as Record<CardFieldName, HTMLInputElement>;
  const errors = {} as Record<CardFieldName, HTMLParagraphElement>;
  const hints: Partial<Record<CardFieldName, HTMLSpanElement>> = {};

  const fieldElement = (
    name: CardFieldName,
    label: string,
    hint: string | null,
    extraAttributes: Record<string, string | number>,
    extra?: Node,
  ) => {
    const input = el("input", { id: name, type: "text", inputmode: "numeric", ...extraAttributes });
    input.addEventListener("input", (event) => onEdit(name, event));
    input.addEventListener("change", (event) => onEdit(name, event));
    input.addEventListener("blur", () => leave(name));
    inputs[name] = input;
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
    fieldElement(
      "number",
      t.number,
      null,
      { name: "cardnumber", autocomplete: "cc-number", maxlength: 23 },
      brandText,
    ),
    el(
      "div",
      { class: "row" },
      fieldElement("expiry", t.expiry, t.expiryHint, {
        name: "exp-date",
        autocomplete: "cc-exp",
        maxlength: 7,
      }),
      // Its hint's text follows the brand (paint).
      fieldElement("cvv", t.cvv, "", { name: "cvc", autocomplete: "cc-csc", maxlength: MAX_CVV }),
    ),
    el("div", { class: "hp", "aria-hidden": "true" }, honeypot),
    challengeRegion,
    // Lets Enter submit a form of three text fields; the page's button is the visible one.
    el("button", { type: "submit", hidden: "", tabindex: -1, "aria-label": t.title }),
  );

  /** Brings the DOM in line with the state. */
  function paint() {
    const problems = cardProblems(values);
    const brand = cardBrand(values.number.replace(/\D/g, ""));
    const cvvDigits = cvvLength(brand);
    text(brandText, t.brand[brand]);
    text(hints.cvv!, t.cvvHint(cvvDigits));
    for (const name of FIELDS) {
      const input = inputs[name];
      const problem =
        serverProblems[name] ??
        (touched[name] || looksFinished(name, values) ? (problems[name] ?? null) : null);
      // The state wins over what the input holds, as a controlled input's does.
      if (input.value !== values[name]) input.value = values[name];
      input.readOnly = busy;
      attribute(input, "aria-invalid", problem ? "true" : null);
      const describedBy = [problem ? `${name}-error` : "", hints[name] ? `${name}-hint` : ""]
        .filter(Boolean)
        .join(" ");
      attribute(input, "aria-describedby", describedBy || null);
      text(errors[name], !problem ? "" : problem === "cvvInvalid" ? t.cvvInvalid(cvvDigits) : t[problem]);
    }
    challengeRegion.hidden = !challenge;
    text(challengeStatus, challenge ? t.challengeStatus[challenge] : "");
  }

  function setChallenge(status: ChallengeStatus | null) {
    challenge = status;
    paint();
    // The challenge region takes the focus as it appears, so its name and status are read out.
    if (status === "shown") challengeRegion.focus();
  }

  /** Tells the page whether the card is complete, at once: a click may follow in the same instant. */
  function report(next: CardValues) {
    channel.send({
      type: "givekit:card-state",
      complete: Object.keys(cardProblems(next)).length === 0,
      brand: cardBrand(next.number.replace(/\D/g, "")),
    });
  }

  function update(next: CardValues) {
    const previous = values;
    if (FIELDS.every((name) => previous[name] === next[name])) return;
    values = next;
    serverProblems = { ...serverProblems };
    for (const name of FIELDS) if (previous[name] !== next[name]) delete serverProblems[name];
    report(next);
    paint();
  }

  function touch(fields: CardFieldName[]) {
    touched = { ...touched };
    for (const name of fields) touched[name] = true;
    paint();
  }

  /**
   * Reads what the inputs hold now. Autofill and password managers set a value in one go and
   * may send only `change`, or no event at all: the inputs, not the events, are the truth.
   */
  function read(): CardValues {
    const next = { ...values };
    for (const name of FIELDS) {
      const input = inputs[name];
      if (input.value !== next[name]) next[name] = shape(name, input.value, false);
    }
    return next;
  }

  function sync(): CardValues {
    const next = read();
    update(next);
    return next;
  }

  /** One handler for `input` and `change`, typed, pasted or filled in one go, focused or not. */
  function onEdit(field: CardFieldName, event: Event) {
    const input = inputs[field];
    const deleting = (event as InputEvent).inputType?.startsWith("delete") ?? false;
    const caret = input.selectionStart ?? input.value.length;
    const before = input.value.slice(0, caret).replace(/\D/g, "").length;
    const formatted = shape(field, input.value, deleting);
    if (input.value !== formatted) {
      input.value = formatted;
      // The caret stays after the digit just typed rather than jumping to the end.
      if (field === "number" && document.activeElement === input) {
        const at = caretAfterDigits(formatted, before);
        input.setSelectionRange(at, at);
      }
    }
    // The other fields as they hold now: one filled in without an event is kept, not painted over.
    update({ ...read(), [field]: formatted });
  }

  function leave(field: CardFieldName) {
    const next = sync();
    const full = normalizeExpiry(next.expiry);
    // "04/30" is shown as "04/2030", the form the card will be sent in.
    if (field === "expiry" && full && /^\d{1,2}\/\d{2}$/.test(next.expiry.trim())) {
      update({ ...next, expiry: full });
    }
    touch([field]);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    sync();
    // Enter in a card field gives, as it does in the page's own fields.
    channel.send({ type: "givekit:submit" });
  });

  function answer(message: TokenAnswer) {
    if (message.type === "givekit:token-error") {
      const refused: Problems = {};
      for (const path of Object.keys(message.errors ?? {})) {
        const name = SERVER_FIELDS[path];
        if (name) refused[name] = SERVER_PROBLEMS[name];
      }
      serverProblems = refused;
      paint();
    }
    channel.send({ ...message, id: answerTo ?? message.id });
    answerTo = null;
  }

  async function tokenize(id: string) {
    // A tokenization under way (its challenge on screen, say) answers this request too: one card, one answer.
    if (answerTo) {
      answerTo = id;
      return;
    }
    const current = sync();
    touch(FIELDS);
    const found = cardProblems(current);
    if (Object.keys(found).length > 0) {
      channel.send({ type: "givekit:token-error", id, code: "validation_failed" });
      return;
    }
    answerTo = id;
    busy = true;
    setChallenge(null);
    const card = {
      card_number: current.number.replace(/\D/g, ""),
      cvv: current.cvv,
      expiration_date: normalizeExpiry(current.expiry) ?? current.expiry,
    };
    const context = { honeypot: honeypot.value, campaign, origin, formSession: await formSession.current() };
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
            : await (await import("./turnstile")).solveChallenge(challengeBox, asked, locale);
        setChallenge("checking");
        reply = await requestToken(id, card, { ...context, proof });
        setChallenge(reply.answer.type === "givekit:token" ? null : "failed");
      } catch {
        setChallenge("failed");
        reply = { answer: { type: "givekit:token-error", id, code: "challenge_failed" }, challenge: null };
      }
    }
    busy = false;
    paint();
    answer(reply.answer);
  }

  /** Focuses the first field not filled in right; `show` marks every field's problem too. */
  function focusFirstProblem(show: boolean) {
    if (show) touch(FIELDS);
    const found = cardProblems(sync());
    inputs[FIELDS.find((name) => found[name]) ?? "number"].focus();
  }

  root.append(form);
  paint();

  channel.send({ type: "givekit:frame-ready" });
  report(values);
  // Measured only once the frame's stylesheet applies: unstyled, the fields stack about 200 px
  // taller, and a page that took that height would shrink the frame again as the donor scrolls.
  const stylesheet = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
  // With the page's look to come (its text size sets the fields' height), measured once it has.
  let themed = !applyTheme;
  const measure = () => {
    if ((stylesheet && !stylesheet.sheet) || !themed) return;
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    // Not shown (widget.js opens the frame before the form shows it, and a form that has given
    // shows it no more): no width, no height worth keeping.
    if (innerWidth > 0 && height > 0) channel.send({ type: "givekit:resize", height });
  };
  stylesheet?.addEventListener("load", measure);
  measure();
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
  observer?.observe(document.body);

  const stopListening = channel.listen((message: ToFrameMessage) => {
    if (message.type === "givekit:tokenize") void tokenize(message.id);
    else if (message.type === "givekit:focus") focusFirstProblem(true);
    // The donor has just come to the card: nothing is wrong yet.
    else if (message.type === "givekit:start") focusFirstProblem(false);
    else if (message.type === "givekit:theme") {
      const { type: _, ...theme } = message;
      applyTheme?.(theme);
      themed = true;
      // The page may have opened this frame before it listened: it hears the card's state now.
      report(values);
      measure();
    } else {
      for (const name of FIELDS) inputs[name].value = "";
      update(EMPTY);
      touched = {};
      serverProblems = {};
      paint();
    }
  });

  return () => {
    stopListening();
    stylesheet?.removeEventListener("load", measure);
    observer?.disconnect();
    form.remove();
  };
}
