import type { TargetedEvent } from "preact";
import { fromCents } from "../../contract/money";
import type { Locale, Messages } from "../i18n";
import { emit } from "../shared/events";
import { formatMoney } from "../shared/format";
import { AmountPicker, FrequencyPicker } from "./AmountPicker";
import { CardField } from "./CardField";
import type { CardPort } from "./card-port";
import { MEMO_MAX, type DonateField, type DonationModel } from "./DonationModel";
import { DonorFields } from "./DonorFields";
import { focusOnMount, reactive } from "../shared/reactive";
import { Announce, Checkbox, ExternalLink, focusField, TextField } from "../shared/Field";
import { PeerPicker } from "./PeerPicker";
import { problemText } from "./problem-text";

/** The widget's heading, which names the form. */
export const HEADING_ID = "gk-heading";

interface DonationFormProps {
  model: DonationModel;
  card: CardPort;
  host: HTMLElement;
  t: Messages;
  locale: Locale;
}

/** The donation form: amount, attribution, donor, card, options, and one clear button. */
export const DonationForm = reactive(({ model, card, host, t, locale }: DonationFormProps) => {
  const d = t.donate;
  const campaign = model.campaign.value;
  const currency = campaign?.currency ?? "USD";
  const status = model.status.value;
  const errors = model.errors.value;
  const usesZip = model.usesZip.value;
  const busy = model.busy.value;
  const total = model.totalCents.value;
  const per = d.per[model.frequency.value];
  const errorFor = (field: DonateField) => {
    const problem = errors[field];
    return problem ? problemText(t, field, problem, campaign, locale, usesZip) : null;
  };
  const errorCount = model.errorFields.value.length;

  async function onSubmit(event: TargetedEvent<HTMLFormElement, SubmitEvent>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = await model.submit();
    const outcome = model.status.peek();
    if (result.kind === "invalid" || result.kind === "failed") {
      const first = result.kind === "invalid" ? result.fields[0] : null;
      if (first === "card") card.focus();
      else if (first) focusField(form, first);
      else form.querySelector<HTMLElement>("[type=submit]")?.focus();
      emit(host, "givekit:error", { code: result.code ?? "validation_failed" });
    } else if (outcome.kind === "success" || outcome.kind === "pending") {
      const success = outcome.kind === "success";
      const told = (said: "Success" | "Pending" | "NotCharged", transactionId: string | null) =>
        emit(host, "givekit:donation", {
          status: said,
          amount: fromCents(outcome.totalCents),
          frequency: outcome.frequency,
          transaction_id: transactionId,
        });
      told(success ? "Success" : "Pending", success ? outcome.transactionId : null);
      if (success) return;
      // The form is gone by now; the model keeps asking, and the page hears how it ended.
      const final = await model.follow();
      const end = model.status.peek();
      if (final) told(final, end.kind === "success" ? end.transactionId : null);
    }
  }

  const smsProgram = model.props.programName ?? d.smsProgramFallback;
  const { termsUrl, privacyUrl } = model.props;
  return (
    <form
      part="form"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby={HEADING_ID}
      aria-busy={busy ? "true" : "false"}
    >
      <FrequencyPicker model={model} t={t} />
      <AmountPicker model={model} t={t} locale={locale} error={errorFor("amount")} />
      <PeerPicker model={model} t={t} locale={locale} error={errorFor("peer")} />
      <DonorFields model={model} t={t} locale={locale} errorFor={errorFor} />
      <CardField
        card={card}
        host={host}
        proxyUrl={model.props.proxyUrl}
        locale={locale}
        t={t}
        error={errorFor("card")}
        target={model.props.target}
      />
      <fieldset>
        <legend part="legend">{d.optionsLegend}</legend>
        <Checkbox
          field="anonymous"
          label={d.anonymous}
          checked={model.anonymous.value}
          onChange={(checked) => model.set(model.anonymous, checked)}
        />
        <Checkbox
          field="pledgeWall"
          label={d.pledgeWall}
          checked={model.pledgeWall.value}
          onChange={(checked) => model.set(model.pledgeWall, checked)}
        />
        <TextField
          field="memo"
          label={d.memo}
          optional={t.common.optional}
          value={model.memo.value}
          error={errorFor("memo")}
          autocomplete="off"
          maxLength={MEMO_MAX}
          multiline
          onInput={(value) => model.set(model.memo, value, "memo")}
        />
        <Checkbox
          field="smsOptIn"
          label={d.smsOptIn(smsProgram)}
          checked={model.smsOptIn.value}
          onChange={(checked) => model.set(model.smsOptIn, checked, "phone")}
          describedBy="gk-sms-disclosure"
        />
        <p id="gk-sms-disclosure" class="gk-hint" part="disclosure">
          {d.smsDisclosure(smsProgram)}
          {termsUrl ? (
            <>
              {" "}
              <ExternalLink href={termsUrl}>{t.common.terms}</ExternalLink>
            </>
          ) : null}
          {privacyUrl ? (
            <>
              {" "}
              <ExternalLink href={privacyUrl}>{t.common.privacy}</ExternalLink>
            </>
          ) : null}
        </p>
      </fieldset>
      {status.kind === "failed" ? (
        <p
          class="gk-alert"
          role="alert"
          part="error"
          // Back from a Pending screen: the news is read out first, as that screen's was.
          {...(status.failure === "notCharged" && { ref: focusOnMount, tabIndex: -1 })}
        >
          {{ ...t.common, ...d.outcome }[status.failure]}
        </p>
      ) : null}
      <Announce
        attempt={model.attempt.value}
        text={busy ? d.submitting : errorCount > 0 ? t.common.fixErrors(errorCount) : ""}
      />
      <button type="submit" part="submit" disabled={busy}>
        {busy ? (
          <>
            <span class="gk-spinner" aria-hidden="true" />
            {d.submitting}
          </>
        ) : total === null ? (
          d.submit("", "").trim()
        ) : (
          d.submit(formatMoney(total, currency, locale), per)
        )}
      </button>
    </form>
  );
});
