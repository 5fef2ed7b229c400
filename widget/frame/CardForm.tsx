import { useEffect, useRef, useState } from "preact/hooks";
import type { InputHTMLAttributes, JSX, TargetedInputEvent } from "preact";
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
import { requestToken } from "./token-client";

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
}

/**
 * The card number, expiry and security code. They never leave this frame except in the one
 * request to the proxy's /v1/payment-tokens; the page gets back only a token, brand and last 4.
 */
export function CardForm({ channel, t }: CardFormProps) {
  const [values, setValues] = useState<CardValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<CardFieldName, boolean>>>({});
  const [serverProblems, setServerProblems] = useState<Partial<Record<CardFieldName, CardProblem>>>({});
  const [busy, setBusy] = useState(false);
  const inputs = {
    number: useRef<HTMLInputElement>(null),
    expiry: useRef<HTMLInputElement>(null),
    cvv: useRef<HTMLInputElement>(null),
  };
  const latest = useRef(values);
  latest.current = values;

  const digits = values.number.replace(/\D/g, "");
  const brand = cardBrand(digits);
  const cvvDigits = cvvLength(brand);
  const problems = cardProblems(values);
  const complete = Object.keys(problems).length === 0;

  const shown = (field: CardFieldName): CardProblem | null =>
    serverProblems[field] ??
    (touched[field] || looksFinished(field, values) ? (problems[field] ?? null) : null);
  const words = (problem: CardProblem) => (problem === "cvvInvalid" ? t.cvvInvalid(cvvDigits) : t[problem]);

  useEffect(() => {
    channel.send({ type: "givekit:frame-ready" });
    const report = () => channel.send({ type: "givekit:resize", height: document.body.offsetHeight });
    report();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(report);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [channel]);

  useEffect(() => {
    channel.send({ type: "givekit:card-state", complete, brand });
  }, [values, complete, brand, channel]);

  useEffect(() => {
    async function tokenize(id: string) {
      const current = latest.current;
      setTouched({ number: true, expiry: true, cvv: true });
      const found = cardProblems(current);
      if (Object.keys(found).length > 0) {
        channel.send({ type: "givekit:token-error", id, code: "validation_failed" });
        return;
      }
      setBusy(true);
      const answer = await requestToken(id, {
        card_number: current.number.replace(/\D/g, ""),
        cvv: current.cvv,
        expiration_date: normalizeExpiry(current.expiry) ?? current.expiry,
      });
      setBusy(false);
      if (answer.type === "givekit:token-error") {
        const refused: Partial<Record<CardFieldName, CardProblem>> = {};
        for (const path of Object.keys(answer.errors ?? {})) {
          const field = SERVER_FIELDS[path];
          if (field) refused[field] = SERVER_PROBLEMS[field];
        }
        setServerProblems(refused);
      }
      channel.send(answer);
    }

    function focusFirstProblem() {
      setTouched({ number: true, expiry: true, cvv: true });
      const found = cardProblems(latest.current);
      const field = FIELDS.find((name) => found[name]) ?? "number";
      inputs[field].current?.focus();
    }

    return channel.listen((message: ToFrameMessage) => {
      if (message.type === "givekit:tokenize") void tokenize(message.id);
      else if (message.type === "givekit:focus") focusFirstProblem();
      else {
        setValues(EMPTY);
        setTouched({});
        setServerProblems({});
      }
    });
    // The refs are stable; `latest` carries the current values into the listener.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [channel]);

  function edit(field: CardFieldName, value: string) {
    setValues((previous) => ({ ...previous, [field]: value }));
    if (serverProblems[field]) setServerProblems((previous) => ({ ...previous, [field]: undefined }));
  }

  function onNumber(event: TargetedInputEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const caret = input.selectionStart ?? input.value.length;
    const before = input.value.slice(0, caret).replace(/\D/g, "").length;
    const typed = input.value.replace(/\D/g, "");
    const formatted = formatCardNumber(typed.slice(0, maxDigits(cardBrand(typed))), cardBrand(typed));
    // Set at once, so the caret stays after the digit just typed rather than jumping to the end.
    input.value = formatted;
    const at = caretAfterDigits(formatted, before);
    input.setSelectionRange(at, at);
    edit("number", formatted);
  }

  function onExpiry(event: TargetedInputEvent<HTMLInputElement>) {
    const deleting = (event as unknown as InputEvent).inputType?.startsWith("delete") ?? false;
    const formatted = formatExpiryInput(event.currentTarget.value, deleting);
    event.currentTarget.value = formatted;
    edit("expiry", formatted);
  }

  function onExpiryBlur() {
    const full = normalizeExpiry(values.expiry);
    // "04/30" is shown as "04/2030", the form the card will be sent in.
    if (full && /^\d{1,2}\/\d{2}$/.test(values.expiry.trim())) edit("expiry", full);
    leave("expiry");
  }

  function onCvv(event: TargetedInputEvent<HTMLInputElement>) {
    const typed = event.currentTarget.value.replace(/\D/g, "").slice(0, MAX_CVV);
    event.currentTarget.value = typed;
    edit("cvv", typed);
  }

  function leave(field: CardFieldName) {
    setTouched((previous) => ({ ...previous, [field]: true }));
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
          {...input}
        />
        {problem ? (
          <p id={`${name}-error`} class="error">
            {words(problem)}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form class="card" noValidate onSubmit={(event) => event.preventDefault()}>
      {field(
        "number",
        t.number,
        null,
        {
          name: "cardnumber",
          autocomplete: "cc-number",
          maxLength: 23,
          onInput: onNumber,
          onBlur: () => leave("number"),
        },
        <span class="brand" aria-live="polite">
          {t.brand[brand]}
        </span>,
      )}
      <div class="row">
        {field("expiry", t.expiry, t.expiryHint, {
          name: "exp-date",
          autocomplete: "cc-exp",
          maxLength: 7,
          onInput: onExpiry,
          onBlur: onExpiryBlur,
        })}
        {field("cvv", t.cvv, t.cvvHint(cvvDigits), {
          name: "cvc",
          autocomplete: "cc-csc",
          maxLength: MAX_CVV,
          onInput: onCvv,
          onBlur: () => leave("cvv"),
        })}
      </div>
    </form>
  );
}
