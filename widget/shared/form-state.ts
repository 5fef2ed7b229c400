import { batch, computed, signal } from "@preact/signals-core";
import type { Problem } from "../../contract/error-schemas";
import type { WidgetErrorCode } from "../../contract/errors";

/** Where a form is: being filled in, sending, refused (and why), or one of its own endings. */
export type FormStatus<Failure, End extends { kind: string }> =
  | { kind: "editing" }
  /** `checking`: waiting through an open circuit breaker of the proxy, to try again by itself. */
  | { kind: "submitting"; checking?: boolean }
  | { kind: "failed"; failure: Failure; code: WidgetErrorCode }
  | End;

/** What a submit attempt came to, so the form can move focus and fire events. */
export type SubmitResult<Field, Done extends string> =
  | { kind: "invalid"; fields: Field[]; code?: WidgetErrorCode }
  | { kind: "failed"; code: WidgetErrorCode }
  | { kind: Done }
  | { kind: "busy" };

/**
 * The state both givekit forms share, as signals: each field's problem, the status, and the
 * attempt count (bumped on each refusal, so the live region reads the same words again).
 *
 * @example
 * const form = createFormState<"email", "required", "failed", { kind: "success" }>(["email"], {}, "failed");
 * form.fail({ email: "required" }); // { kind: "invalid", fields: ["email"] }
 */
export function createFormState<
  Field extends string,
  Why extends string,
  Failure,
  End extends { kind: string },
>(fields: readonly Field[], failures: Partial<Record<WidgetErrorCode, Failure>>, otherFailure: Failure) {
  type Problems = Partial<Record<Field, Why>>;
  const errors = signal<Problems>({});
  const status = signal<FormStatus<Failure, End>>({ kind: "editing" });
  const attempt = signal(0);
  const busy = computed(() => status.value.kind === "submitting");
  const fieldsOf = (problems: Problems) => fields.filter((field) => problems[field] !== undefined);

  return {
    errors,
    status,
    attempt,
    busy,
    /** The fields with a problem, in the order they appear. */
    errorFields: computed(() => fieldsOf(errors.value)),

    /** A field's problem once its value changes: `problem` (or none, by default). */
    recheck(field: Field, problem?: Why) {
      if (errors.value[field] !== undefined) errors.value = { ...errors.value, [field]: problem };
    },

    /** Marks an attempt as under way; false while another one is. */
    start(): boolean {
      if (busy.peek()) return false;
      batch(() => {
        errors.value = {};
        status.value = { kind: "submitting" };
      });
      return true;
    },

    /** Ends an attempt that did not go through: on the fields with problems, else as a failure. */
    fail(problems: Problems, code?: WidgetErrorCode): SubmitResult<Field, never> {
      const refused = fieldsOf(problems);
      const failed = refused.length === 0 && code !== undefined;
      batch(() => {
        errors.value = problems;
        status.value = failed
          ? { kind: "failed", failure: failures[code] ?? otherFailure, code }
          : { kind: "editing" };
        attempt.value += 1;
      });
      return failed ? { kind: "failed", code } : { kind: "invalid", fields: refused, code };
    },

    /** The proxy's per-field errors (field path → messages) on the form's own fields. */
    serverProblems(
      problem: Problem,
      fieldAt: (path: string) => Field | undefined,
      as: (field: Field) => Why,
    ) {
      const problems: Problems = {};
      for (const path of Object.keys(problem.errors ?? {})) {
        const field = fieldAt(path);
        if (field) problems[field] = as(field);
      }
      return problems;
    },
  };
}
