import { useEffect, useRef, useState } from "preact/hooks";
import type { InputHTMLAttributes, JSX, TargetedEvent } from "preact";
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

interface CardFormProps {
  channel: ParentChannel;
  t: FrameMessages;
  /** The frame's language, for the challenge's own words. */
  locale: string;
  /** The campaign the page opened the frame for (its address says), or null. */
  campaign: { shortcode: string; keyword: string } | null;
  /** The frame's form session (openFormSession). */
  formSession: FormSessionSource;
}

/** Where the challenge is: asked and shown, being checked with the proxy, or failed. */
type ChallengeStatus = "shown" | "checking" | "failed";

/**
 * The card number, expiry and security code. They never leave this frame except in the one
 * request to the proxy's /v1/payment-tokens; the page gets back only a token, brand and last 4.
 */
export function CardForm({ channel, t, locale, campaign, formSession }: CardFormProps) {
  const [values, setValues] = useState<CardValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<CardFieldName, boolean>>>({});
  const [serverProblems, setServerProblems] = useState<Partial<Record<CardFieldName, CardProblem>>>({});
  const [busy, setBusy] = useState(false);
  const inputs = {
    number: useRef<HTMLInputElement>(null),
    expiry: useRef<HTMLInputElement>(null),
    cvv: useRef<HTMLInputElement>(null),
  };
  /** The card as the donor left it, ahead of the next render: read by messages and events alike. */
  const latest = useRef(values);
  const honeypot = useRef<HTMLInputElement>(null);
  const [challenge, setChallenge] = useState<ChallengeStatus | null>(null);
  const challengeRegion = useRef<HTMLElement>(null);
  const challengeBox = useRef<HTMLDivElement>(null);
  /** The page's latest tokenize request: a challenge outlives the request that met it. */
  const answerTo = useRef<string | null>(null);

  const digits = values.number.replace(/\D/g, "");
  const brand = cardBrand(digits);
  const cvvDigits = cvvLength(brand);
  const problems = cardProblems(values);

  const shown = (field: CardFieldName): CardProblem | null =>
    serverProblems[field] ??
    (touched[field] || looksFinished(field, values) ? (problems[field] ?? null) : null);
  const words = (problem: CardProblem) => (problem === "cvvInvalid" ? t.cvvInvalid(cvvDigits) : t[problem]);

  /** Tells the page whether the card is complete, at once: a click may follow in the same instant. */
  function report(next: CardValues) {
    channel.send({
      type: "givekit:card-state",
      complete: Object.keys(cardProblems(next)).length === 0,
      brand: cardBrand(next.number.replace(/\D/g, "")),
    });
  }

  function update(next: CardValues) {
    const previous = latest.current;
    if (FIELDS.every((name) => previous[name] === next[name])) return;
    latest.current = next;
    setValues(next);
    setServerProblems((refused) => {
      const kept = { ...refused };
      for (const name of FIELDS) if (previous[name] !== next[name]) delete kept[name];
      return kept;
    });
    report(next);
  }

  /**
   * Reads what the inputs hold now. Autofill and password managers set a value in one go and
   * may send only `change`, or no event at all: the inputs, not the events, are the truth.
   */
  function readInputs(): CardValues {
    const next = { ...latest.current };
    for (const name of FIELDS) {
      const input = inputs[name].current;
      if (input && input.value !== next[name]) next[name] = shape(name, input.value, false);
    }
    return next;
  }

  function sync() {
    const next = readInputs();
    update(next);
    return next;
  }

  useEffect(() => {
    channel.send({ type: "givekit:frame-ready" });
    report(latest.current);
    // Measured only once the frame's stylesheet applies: unstyled, the fields stack about 200 px
    // taller, and a page that took that height would shrink the frame again as the donor scrolls.
    const stylesheet = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
    const measure = () => {
      if (stylesheet && !stylesheet.sheet) return;
      channel.send({
        type: "givekit:resize",
        height: Math.ceil(document.body.getBoundingClientRect().height),
      });
    };
    stylesheet?.addEventListener("load", measure);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => {
      stylesheet?.removeEventListener("load", measure);
      observer.disconnect();
    };
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- once per channel; report reads no state.
  }, [channel]);

  // The challenge region takes the focus as it appears, so its name and status are read out.
  useEffect(() => {
    if (challenge === "shown") challengeRegion.current?.focus();
  }, [challenge]);

  useEffect(() => {
    function answer(message: TokenAnswer) {
      if (message.type === "givekit:token-error") {
        const refused: Partial<Record<CardFieldName, CardProblem>> = {};
        for (const path of Object.keys(message.errors ?? {})) {
          const field = SERVER_FIELDS[path];
          if (field) refused[field] = SERVER_PROBLEMS[field];
        }
        setServerProblems(refused);
      }
      channel.send({ ...message, id: answerTo.current ?? message.id });
      answerTo.current = null;
    }

    async function tokenize(id: string) {
      // A tokenization under way (its challenge on screen, say) answers this request too: one card, one answer.
      if (answerTo.current) {
        answerTo.current = id;
        return;
      }
      const current = sync();
      setTouched({ number: true, expiry: true, cvv: true });
      const found = cardProblems(current);
      if (Object.keys(found).length > 0) {
        channel.send({ type: "givekit:token-error", id, code: "validation_failed" });
        return;
      }
      answerTo.current = id;
      setBusy(true);
      setChallenge(null);
      const card = {
        card_number: current.number.replace(/\D/g, ""),
        cvv: current.cvv,
        expiration_date: normalizeExpiry(current.expiry) ?? current.expiry,
      };
      const context = {
        honeypot: honeypot.current?.value ?? "",
        campaign,
        formSession: await formSession.current(),
      };
      let reply = await requestToken(id, card, context);
      if (reply.challenge) {
        // Defence mode: the proxy asks for a proof of a human; the script loads only now.
        setChallenge("shown");
        try {
          // One turn for the region to show before the challenge draws into it.
          await new Promise((resolve) => setTimeout(resolve));
          const { solveChallenge } = await import("./turnstile");
          const proof = await solveChallenge(challengeBox.current!, reply.challenge, locale);
          setChallenge("checking");
          reply = await requestToken(id, card, { ...context, proof });
          setChallenge(reply.answer.type === "givekit:token" ? null : "failed");
        } catch {
          setChallenge("failed");
          reply = { answer: { type: "givekit:token-error", id, code: "challenge_failed" }, challenge: null };
        }
      }
      setBusy(false);
      answer(reply.answer);
    }

    /** Focuses the first field not filled in right; `show` marks every field's problem too. */
    function focusFirstProblem(show: boolean) {
      if (show) setTouched({ number: true, expiry: true, cvv: true });
      const found = cardProblems(sync());
      const field = FIELDS.find((name) => found[name]) ?? "number";
      inputs[field].current?.focus();
    }

    return channel.listen((message: ToFrameMessage) => {
      if (message.type === "givekit:tokenize") void tokenize(message.id);
      else if (message.type === "givekit:focus") focusFirstProblem(true);
      // The donor has just come to the card: nothing is wrong yet.
      else if (message.type === "givekit:start") focusFirstProblem(false);
      else {
        for (const name of FIELDS) if (inputs[name].current) inputs[name].current.value = "";
        update(EMPTY);
        setTouched({});
        setServerProblems({});
      }
    });
    // The refs are stable; `latest` carries the current values into the listener.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [channel]);

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

  /** One handler for `input` and `change`, typed, pasted or filled in one go, focused or not. */
  function onEdit(field: CardFieldName, event: TargetedEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const deleting = (event as unknown as InputEvent).inputType?.startsWith("delete") ?? false;
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
    update({ ...latest.current, [field]: formatted });
  }

  function leave(field: CardFieldName) {
    const next = sync();
    const full = normalizeExpiry(next.expiry);
    // "04/30" is shown as "04/2030", the form the card will be sent in.
    if (field === "expiry" && full && /^\d{1,2}\/\d{2}$/.test(next.expiry.trim())) {
      update({ ...next, expiry: full });
    }
    setTouched((previous) => ({ ...previous, [field]: true }));
  }

  function onSubmit(event: TargetedEvent<HTMLFormElement>) {
    event.preventDefault();
    sync();
    // Enter in a card field gives, as it does in the page's own fields.
    channel.send({ type: "givekit:submit" });
  }

  const field = (
    name: CardFieldName,
    label: string,
    hint: string | null,
    input: InputHTMLAttributes<HTMLInputElement>,
    extra?: JSX.Element,
  ) => {
    const problem = shown(name);
    const describedBy = [problem ? `${name}-error` : "", hint ? `${name}-hint` : ""]
      .filter(Boolean)
      .join(" ");
    return (
      <div class={`field field-${name}`}>
        <div class="label-row">
          <label for={name}>{label}</label>
          {extra}
        </div>
        {hint ? (
          <span id={`${name}-hint`} class="hint">
            {hint}
          </span>
        ) : null}
        <input
          ref={inputs[name]}
          id={name}
          type="text"
          inputMode="numeric"
          readOnly={busy}
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={describedBy || undefined}
          value={values[name]}
          onInput={(event) => onEdit(name, event)}
          onChange={(event) => onEdit(name, event)}
          onBlur={() => leave(name)}
          {...input}
        />
        {/* Its line is kept even when empty, so an error never moves what is below. */}
        <p id={`${name}-error`} class="error">
          {problem ? words(problem) : null}
        </p>
      </div>
    );
  };

  return (
    <form class="card" noValidate onSubmit={onSubmit}>
      {field(
        "number",
        t.number,
        null,
        { name: "cardnumber", autocomplete: "cc-number", maxLength: 23 },
        <span class="brand" aria-live="polite">
          {t.brand[brand]}
        </span>,
      )}
      <div class="row">
        {field("expiry", t.expiry, t.expiryHint, { name: "exp-date", autocomplete: "cc-exp", maxLength: 7 })}
        {field("cvv", t.cvv, t.cvvHint(cvvDigits), {
          name: "cvc",
          autocomplete: "cc-csc",
          maxLength: MAX_CVV,
        })}
      </div>
      {/* A honeypot: off screen, out of the tab order and hidden from assistive technology, so
          only a bot filling every field fills it. */}
      <div class="hp" aria-hidden="true">
        <input ref={honeypot} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autocomplete="off" />
      </div>
      {/* Always in the page, hidden until the proxy asks: the challenge draws into it at once. */}
      <section
        ref={challengeRegion}
        class="challenge"
        aria-labelledby="challenge-title"
        tabIndex={-1}
        hidden={!challenge}
      >
        <p id="challenge-title" class="challenge-title">
          {t.challengeTitle}
        </p>
        <output>{challenge ? t.challengeStatus[challenge] : null}</output>
        <div ref={challengeBox} />
      </section>
      {/* Lets Enter submit a form of three text fields; the page's button is the visible one. */}
      <button type="submit" hidden tabIndex={-1} aria-label={t.title} />
    </form>
  );
}
