import type { InputHTMLAttributes, TargetedEvent } from "preact";
import { describedBy, FieldError, fieldId, hintId } from "./Field";

type Input = HTMLInputElement | HTMLTextAreaElement;

interface TextFieldProps {
  field: string;
  label: string;
  value: string;
  error: string | null;
  /** The word shown after an optional field's label; required fields carry none. */
  optional?: string | null;
  hint?: string | null;
  type?: "text" | "email" | "tel";
  autocomplete: string;
  inputMode?: InputHTMLAttributes<HTMLInputElement>["inputMode"];
  maxLength?: number;
  multiline?: boolean;
  onInput: (value: string, event: TargetedEvent<Input, InputEvent>) => void;
}

/** A labelled text input whose error and hint are announced with it. */
export function TextField(props: TextFieldProps) {
  const { field, error } = props;
  const common = {
    id: fieldId(field),
    name: field,
    value: props.value,
    autocomplete: props.autocomplete,
    maxLength: props.maxLength,
    required: !props.optional,
    "aria-invalid": error ? ("true" as const) : undefined,
    "aria-describedby": describedBy(field, error, props.hint),
    part: "input",
    onInput: (event: TargetedEvent<Input, InputEvent>) => props.onInput(event.currentTarget.value, event),
  };
  return (
    <div class="gk-field">
      <label for={fieldId(field)} part="label">
        {props.label}
        {props.optional ? <span class="gk-muted"> ({props.optional})</span> : null}
      </label>
      {props.hint ? (
        <p id={hintId(field)} class="gk-hint">
          {props.hint}
        </p>
      ) : null}
      {props.multiline ? (
        <textarea {...common} rows={3} />
      ) : (
        // Preact's types tell text, e-mail and tel inputs apart; all three take the same props here.
        <input {...common} type={(props.type ?? "text") as "text"} inputMode={props.inputMode} />
      )}
      <FieldError field={field} error={error} />
    </div>
  );
}
