import { cardBrand } from "../../contract/card";
import type { FromFrameMessage } from "../../contract/frame";
import {
  cardProblems,
  caretAfterDigits,
  formatCardNumber,
  formatExpiryInput,
  maxDigits,
  normalizeExpiry,
  type CardFieldName,
  type CardValues,
} from "./card-input";
import { EMPTY, FIELDS, MAX_CVV, type CardFormState } from "./card-state";
import type { CardView } from "./card-view";

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

interface CardEditDeps {
  state: CardFormState;
  view: CardView;
  send: (message: FromFrameMessage) => void;
  paint: () => void;
}

/**
 * The donor's edits, typed, pasted or filled in one go, kept in the state; each tells the page at
 * once whether the card is complete (a click may follow in the same instant). Listens to the inputs.
 */
export function cardEdits({ state, view, send, paint }: CardEditDeps) {
  const { inputs } = view;

  function report(next: CardValues) {
    send({
      type: "givekit:card-state",
      complete: Object.keys(cardProblems(next)).length === 0,
      brand: cardBrand(next.number.replace(/\D/g, "")),
    });
  }

  function update(next: CardValues) {
    const previous = state.values;
    if (FIELDS.every((name) => previous[name] === next[name])) return;
    state.values = next;
    state.serverProblems = { ...state.serverProblems };
    for (const name of FIELDS) if (previous[name] !== next[name]) delete state.serverProblems[name];
    report(next);
    paint();
  }

  function touch(fields: CardFieldName[]) {
    state.touched = { ...state.touched };
    for (const name of fields) state.touched[name] = true;
    paint();
  }

  /**
   * Reads what the inputs hold now. Autofill and password managers set a value in one go and
   * may send only `change`, or no event at all: the inputs, not the events, are the truth.
   */
  function read(): CardValues {
    const next = { ...state.values };
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

  for (const name of FIELDS) {
    inputs[name].addEventListener("input", (event) => onEdit(name, event));
    inputs[name].addEventListener("change", (event) => onEdit(name, event));
    inputs[name].addEventListener("blur", () => leave(name));
  }

  return {
    report,
    touch,
    sync,
    /** Focuses the first field not filled in right; `show` marks every field's problem too. */
    focusFirstProblem(show: boolean) {
      if (show) touch(FIELDS);
      const found = cardProblems(sync());
      inputs[FIELDS.find((name) => found[name]) ?? "number"].focus();
    },
    /** Back to an empty card, nothing marked. */
    clear() {
      for (const name of FIELDS) inputs[name].value = "";
      update(EMPTY);
      state.touched = {};
      state.serverProblems = {};
      paint();
    },
  };
}
export type CardEdits = ReturnType<typeof cardEdits>;
