import type { TargetedEvent } from "preact";
import { isolate, isRtl, messagesFor, type Messages } from "../i18n";
import { LanguageSwitch } from "../shared/LanguageSwitch";
import { createApiClient } from "../shared/api-client";
import { emit } from "../shared/events";
import { Announce, Checkbox, focusField } from "../shared/Field";
import { ExternalLink } from "../shared/ExternalLink";
import { TextField } from "../shared/TextField";
import { focusOnMount, Reactive } from "../shared/reactive";
import type { OptinProps } from "./attributes";
import { createOptinModel, type FieldProblem, type OptinField, type OptinFailure } from "./OptinModel";

const HEADING_ID = "gk-optin-heading";
const DISCLOSURE_ID = "gk-disclosure";
const FAILURE_ID = "gk-failure";

/** The disclosure exactly as shown, as one string: what the consent record keeps. */
export function consentTextFor(t: Messages, programName: string): string {
  return `${t.optin.disclosure(programName)} ${t.common.terms} ${t.optin.and} ${t.common.privacy}.`;
}

function fieldMessage(t: Messages, field: OptinField, problem: FieldProblem): string {
  const m = t.optin;
  if (field === "consent") return m.consentRequired;
  if (field === "mobile") return problem === "required" ? m.mobileRequired : m.mobileInvalid;
  return problem === "required" ? t.common[`${field}Required`] : m.nameTooLong;
}

function failureMessage(t: Messages, failure: OptinFailure): string {
  return { ...t.common, ...t.optin }[failure];
}

type OptinFormProps = OptinProps & { host: HTMLElement };

/** The <givekit-optin> form: mobile number, names, explicit consent, and its outcomes. */
export class OptinForm extends Reactive<OptinFormProps> {
  model = createOptinModel();

  override componentDidMount() {
    emit(this.props.host, "givekit:ready", { widget: "optin" });
  }

  view({ host, proxyUrl, target, programName, termsUrl, privacyUrl, locale }: OptinFormProps) {
    const { model } = this;
    const t = messagesFor(locale);
    const o = t.optin;

    const status = model.status.value;
    const errors = model.errors.value;
    const errorCount = model.errorFields.value.length;
    const { keyword, shortcode } = target;
    const error = (field: OptinField) => {
      const problem = errors[field];
      return problem ? fieldMessage(t, field, problem) : null;
    };

    async function onSubmit(event: TargetedEvent<HTMLFormElement, SubmitEvent>) {
      event.preventDefault();
      const form = event.currentTarget;
      const api = createApiClient(proxyUrl);
      const result = await model.submit({
        api,
        target,
        consentText: consentTextFor(t, programName),
        consentLocale: locale,
      });
      if (result.kind === "invalid") {
        focusField(form, result.fields[0]!);
        if (result.code) emit(host, "givekit:error", { code: result.code });
      } else if (result.kind === "success") {
        emit(host, "givekit:subscribe", { status: "subscribed" });
      } else if (result.kind === "failed") {
        emit(host, "givekit:error", { code: result.code });
      }
    }

    function onMobileInput(
      value: string,
      event: TargetedEvent<HTMLInputElement | HTMLTextAreaElement, InputEvent>,
    ) {
      const input = event.currentTarget;
      // Reformatting while deleting or editing mid-number would fight the caret.
      const atEnd = input.selectionStart === null || input.selectionStart === value.length;
      model.setMobile(value, atEnd && !event.inputType?.startsWith("delete"));
    }

    const announcement =
      status.kind === "submitting"
        ? o.submitting
        : status.kind === "failed"
          ? failureMessage(t, status.failure)
          : status.kind === "success"
            ? o.successHeading
            : errorCount > 0
              ? t.common.fixErrors(errorCount)
              : "";

    return (
      <section
        class="gk-optin"
        part="optin"
        aria-labelledby={HEADING_ID}
        lang={locale}
        dir={isRtl(locale) ? "rtl" : "ltr"}
      >
        {host.getAttribute("locales")?.includes(",") ? (
          <div class="gk-language-room">
            <LanguageSwitch host={host} locale={locale} label={t.common.language} />
          </div>
        ) : null}
        <h2 id={HEADING_ID} part="heading">
          {o.heading}
        </h2>
        <Announce attempt={model.attempt.value} text={announcement} />
        {status.kind === "success" ? (
          <div class="gk-outcome gk-success" part="success">
            <h3 tabIndex={-1} ref={focusOnMount}>
              {o.successHeading}
            </h3>
            <p>{o.successBody(programName, isolate(status.number, locale))}</p>
          </div>
        ) : (
          <form part="form" noValidate onSubmit={onSubmit}>
            <p>{o.intro(programName)}</p>
            <p class="gk-hint">{o.allRequired}</p>
            <TextField
              field="mobile"
              label={o.mobileLabel}
              hint={o.mobileHint}
              type="tel"
              inputMode="tel"
              autocomplete="tel"
              value={model.mobile.value}
              error={error("mobile")}
              onInput={onMobileInput}
            />
            <div class="gk-row">
              <TextField
                field="firstName"
                label={t.common.firstName}
                autocomplete="given-name"
                value={model.firstName.value}
                error={error("firstName")}
                onInput={model.setFirstName}
              />
              <TextField
                field="lastName"
                label={t.common.lastName}
                autocomplete="family-name"
                value={model.lastName.value}
                error={error("lastName")}
                onInput={model.setLastName}
              />
            </div>
            <Checkbox
              field="consent"
              label={o.consentLabel(programName)}
              checked={model.consent.value}
              required
              error={error("consent")}
              describedBy={DISCLOSURE_ID}
              onChange={model.setConsent}
            />
            <p id={DISCLOSURE_ID} class="gk-hint gk-disclosure" part="disclosure">
              {o.disclosure(programName)} <ExternalLink href={termsUrl}>{t.common.terms}</ExternalLink>{" "}
              {o.and} <ExternalLink href={privacyUrl}>{t.common.privacy}</ExternalLink>.
            </p>
            {status.kind === "failed" ? (
              <div id={FAILURE_ID} class="gk-alert" part="failure">
                <p>{failureMessage(t, status.failure)}</p>
                {status.failure === "rejected" && keyword && shortcode ? (
                  <p>{o.rejoin(keyword, shortcode)}</p>
                ) : null}
              </div>
            ) : null}
            <button
              type="submit"
              part="button"
              aria-disabled={status.kind === "submitting" ? "true" : undefined}
              aria-describedby={status.kind === "failed" ? FAILURE_ID : undefined}
            >
              {status.kind === "submitting" ? o.submitting : o.submit}
            </button>
            {keyword && shortcode ? (
              <a
                class="gk-sms"
                part="sms-link"
                href={`sms:${shortcode}?&body=${encodeURIComponent(keyword)}`}
              >
                {o.textInstead(keyword, shortcode)}
              </a>
            ) : null}
          </form>
        )}
      </section>
    );
  }
}
