import type { ComponentChildren } from "preact";

/** The ids that tie a field, its hint and its error together (one shadow root per element). */
export const fieldId = (field: string) => `gk-${field}`;
export const errorId = (field: string) => `gk-${field}-error`;
export const hintId = (field: string) => `gk-${field}-hint`;

/** A list of ids for aria-describedby, skipping the missing ones; undefined when none is left. */
export const idList = (...ids: (string | false | null | undefined)[]): string | undefined =>
  ids.filter(Boolean).join(" ") || undefined;

/** aria-describedby for a field: its error first (read first), then its hint. */
export const describedBy = (field: string, error?: string | null, hint?: string | null) =>
  idList(error && errorId(field), hint && hintId(field));

/** Moves focus to a field of the form: its input, else the chosen option of its group. */
export function focusField(form: HTMLFormElement | null, field: string): void {
  (
    form?.querySelector<HTMLElement>(`#${fieldId(field)}`) ??
    form?.querySelector<HTMLElement>(`[data-field="${field}"] :checked`)
  )?.focus();
}

export function FieldError({ field, error }: { field: string; error?: string | null }) {
  return error ? (
    <p id={errorId(field)} class="gk-error" part="error field-error">
      {error}
    </p>
  ) : null;
}

interface ChoicesProps<T extends string> {
  /** The group's `data-field` (where a problem with it focuses) and its radios' name. */
  field: string;
  legend: string;
  choices: readonly T[];
  labelOf: (choice: T) => string;
  chosen: T;
  onChoose: (choice: T) => void;
}

/** A named radio group shown as chips: how often, in honor or in memory. */
export function Choices<T extends string>(props: ChoicesProps<T>) {
  return (
    <fieldset data-field={props.field}>
      <legend part="legend">{props.legend}</legend>
      <div class="gk-chips">
        {props.choices.map((choice) => (
          <label class="gk-chip" key={choice} part="choice">
            <input
              type="radio"
              name={props.field}
              value={choice}
              checked={props.chosen === choice}
              onChange={() => props.onChoose(choice)}
            />
            <span>{props.labelOf(choice)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

interface CheckboxProps {
  field: string;
  label: ComponentChildren;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** What else describes the box (a disclosure), read before its error. */
  describedBy?: string;
  error?: string | null;
  required?: boolean;
}

/** A checkbox with its label beside it and, below, its error. */
export function Checkbox({
  field,
  label,
  checked,
  onChange,
  describedBy: described,
  error,
  required,
}: CheckboxProps) {
  return (
    <>
      <div class="gk-check">
        <input
          id={fieldId(field)}
          type="checkbox"
          part="checkbox"
          checked={checked}
          required={required}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={idList(described, error && errorId(field))}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
        <label for={fieldId(field)}>{label}</label>
      </div>
      <FieldError field={field} error={error} />
    </>
  );
}

/** A polite live region; a new `attempt` makes it read out the same words again. */
export function Announce({ attempt, text }: { attempt: number; text: string }) {
  return (
    <output class="gk-visually-hidden" aria-live="polite" aria-atomic="true">
      <span key={attempt}>{text}</span>
    </output>
  );
}
