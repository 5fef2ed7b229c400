import type { Locale } from "../i18n";
import { signal } from "@preact/signals-core";
import type { SubscriptionRequest, SubscriptionResponse } from "../../contract/api";
import { UNREACHABLE, type WidgetErrorCode } from "../../contract/errors";
import { formatMobile, formatMobileAsTyped, normalizeMobile } from "../../contract/phone";
import type { ApiClient } from "../shared/api-client";
import { createFormState, type SubmitResult as FormResult } from "../shared/form-state";
import type { OptinTarget } from "./attributes";

/** The form's fields, in the order they appear (the first with an error gets focus). */
export const OPTIN_FIELDS = ["mobile", "firstName", "lastName", "consent"] as const;
export type OptinField = (typeof OPTIN_FIELDS)[number];

/** Why a field was refused; the form turns the reason into words in the visitor's language. */
export type FieldProblem = "required" | "invalid" | "tooLong";

/** A refused attempt, by what the visitor can do about it (the key of its words in the catalog). */
export type OptinFailure = "rejected" | "rateLimited" | "upstreamDown" | "networkError" | "failed";

export const NAME_MAX = 100;

/** The proxy's field names → the form's. */
const SERVER_FIELDS: Record<string, OptinField> = {
  mobilenumber: "mobile",
  firstname: "firstName",
  lastname: "lastName",
  consent: "consent",
};

const FAILURES: Partial<Record<WidgetErrorCode, OptinFailure>> = {
  subscription_rejected: "rejected",
  rate_limited: "rateLimited",
  upstream_unavailable: "upstreamDown",
  upstream_error: "upstreamDown",
  upstream_auth_failed: "upstreamDown",
  internal_error: "upstreamDown",
  [UNREACHABLE]: "networkError",
};

/** What a submit attempt needs from the element: where to send it and what was shown. */
export interface SubmitContext {
  api: ApiClient;
  target: OptinTarget;
  consentText: string;
  /** The language that text is in: kept with it on the consent record. */
  consentLocale: Locale;
}

/** What happened on submit, so the form can move focus and fire events. */
export type SubmitResult = FormResult<OptinField, "success">;

interface Values {
  mobile: string;
  firstName: string;
  lastName: string;
  consent: boolean;
}

function nameProblem(value: string): FieldProblem | undefined {
  const name = value.trim();
  if (name === "") return "required";
  return name.length > NAME_MAX ? "tooLong" : undefined;
}

/** The field problems of the current values. */
function validate(values: Values): Partial<Record<OptinField, FieldProblem>> {
  return {
    mobile:
      values.mobile.trim() === ""
        ? "required"
        : normalizeMobile(values.mobile) === null
          ? "invalid"
          : undefined,
    firstName: nameProblem(values.firstName),
    lastName: nameProblem(values.lastName),
    consent: values.consent ? undefined : "required",
  };
}

/**
 * US formatting as the person types ("5550101234" → "(555) 010-1234"). Text that is not a
 * phone number in the making (letters, too many digits) is left exactly as typed.
 */
export function formatAsYouType(input: string): string {
  if (/[^\d\s()+.-]/.test(input)) return input;
  return formatMobileAsTyped(input);
}

/**
 * The opt-in form's state and actions, as signals. Created once per element.
 *
 * @example
 * const model = createOptinModel();
 * model.setMobile("5550101234"); // model.mobile.value === "(555) 010-1234"
 * await model.submit({ api, target: { list: "Hope Alerts" }, consentText });
 */
export function createOptinModel() {
  const form = createFormState<OptinField, FieldProblem, OptinFailure, { kind: "success"; number: string }>(
    OPTIN_FIELDS,
    FAILURES,
    "failed",
  );
  const values = { mobile: signal(""), firstName: signal(""), lastName: signal(""), consent: signal(false) };
  const current = (): Values => ({
    mobile: values.mobile.value,
    firstName: values.firstName.value,
    lastName: values.lastName.value,
    consent: values.consent.value,
  });

  /** Sets a field; its error stays only while the new value is still refused. */
  function set<F extends OptinField>(field: F, value: Values[F]) {
    values[field].value = value as never;
    form.recheck(field, validate(current())[field]);
  }

  return {
    ...form,
    ...values,

    /** Formats as the person types; `format` is false while deleting or editing mid-number. */
    setMobile: (value: string, format = true) => set("mobile", format ? formatAsYouType(value) : value),
    setFirstName: (value: string) => set("firstName", value),
    setLastName: (value: string) => set("lastName", value),
    setConsent: (value: boolean) => set("consent", value),

    /** Validates, then posts to /v1/subscriptions; nothing invalid leaves the browser. */
    async submit(context: SubmitContext): Promise<SubmitResult> {
      if (form.busy.peek()) return { kind: "busy" };
      const filled = current();
      const problems = validate(filled);
      if (OPTIN_FIELDS.some((field) => problems[field])) return form.fail(problems);
      const digits = normalizeMobile(filled.mobile)!;
      const body: SubscriptionRequest = {
        mobilenumber: digits,
        ...context.target,
        firstname: filled.firstName.trim(),
        lastname: filled.lastName.trim(),
        consent: true,
        consent_text: context.consentText,
        consent_locale: context.consentLocale,
      };
      form.start();
      const result = await context.api.post<SubscriptionResponse>("/v1/subscriptions", body);
      if (result.kind === "unreachable") return form.fail({}, UNREACHABLE);
      if (result.kind === "ok") {
        form.status.value = { kind: "success", number: formatMobile(digits) };
        return { kind: "success" };
      }
      const { code } = result.problem;
      const refused = form.serverProblems(
        result.problem,
        (path) => SERVER_FIELDS[path],
        (field) => (field === "consent" ? "required" : "invalid"),
      );
      if (code === "consent_required") refused.consent = "required";
      return form.fail(refused, code);
    },
  };
}
export type OptinModel = ReturnType<typeof createOptinModel>;
