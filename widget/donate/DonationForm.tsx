import type { ComponentChildren, TargetedEvent } from "preact";
import { DEDICATION_KINDS, DEDICATION_NAME_MAX } from "../../contract/dedication";
import { fromCents } from "../../contract/money";
import { EMAIL_MAX } from "../../contract/patterns";
import type { Locale, Messages } from "../i18n";
import { emit } from "../shared/events";
import { formatMoney } from "../shared/format";
import { giftContext } from "./analytics";
import { laterIfLoaded } from "./model/later";
import { AmountPicker, FrequencyPicker } from "./AmountPicker";
import { CardField } from "./CardField";
import type { CardPort } from "./card-port";
import { LAST_STEP, MEMO_MAX, stepOf, type DonateField, type DonationModel } from "./DonationModel";
import { DonorFields } from "./DonorFields";
import { focusOnMount, reactive, Reactive } from "../shared/reactive";
import { Announce, Checkbox, Choices, ExternalLink, focusField, TextField } from "../shared/Field";
import { PeerPicker } from "./PeerPicker";
import { problemText } from "./problem-text";

/** How long the thank-you shows before a `success-url` takes the donor on, in ms. */
export const SUCCESS_REDIRECT_MS = 4000;
/** The widget's heading, which names the form. */
export const HEADING_ID = "gk-heading";

interface DonationFormProps {
  model: DonationModel;
  card: CardPort;
  host: HTMLElement;
  t: Messages;
  locale: Locale;
}

interface OptionsProps {
  model: DonationModel;
  t: Messages;
  errorFor: (field: DonateField) => string | null;
}

/** The SMS disclosure exactly as shown beside the box, as one string: what the consent record keeps. */
export function smsConsentText(t: Messages, programName: string | null): string {
  return `${t.donate.smsDisclosure(programName ?? t.donate.smsProgramFallback)} ${t.common.terms} ${t.common.privacy}`;
}

/** `fields="dedication"`: a box that, ticked, asks whom the gift honors or remembers, and whom to tell. */
const DedicationFields = reactive(({ model, t, errorFor }: OptionsProps) => {
  const d = t.donate;
  const dedication = model.dedication;
  return (
    <>
      <Checkbox
        field="dedicate"
        label={d.dedicate}
        checked={dedication.on.value}
        onChange={(checked) => model.set(dedication.on, checked, "dedicationName")}
      />
      {dedication.on.value ? (
        <>
          <Choices
            field="dedicationKind"
            legend={d.dedicationKind}
            choices={DEDICATION_KINDS}
            labelOf={(kind) => d.dedicationKinds[kind]}
            chosen={dedication.kind.value}
            onChoose={(kind) => model.set(dedication.kind, kind)}
          />
          <TextField
            field="dedicationName"
            label={d.dedicationName}
            optional={null}
            value={dedication.name.value}
            error={errorFor("dedicationName")}
            autocomplete="off"
            maxLength={DEDICATION_NAME_MAX}
            onInput={(value) => model.set(dedication.name, value, "dedicationName")}
          />
          <TextField
            field="dedicationEmail"
            type="email"
            label={d.dedicationEmail}
            optional={t.common.optional}
            value={dedication.email.value}
            error={errorFor("dedicationEmail")}
            autocomplete="off"
            maxLength={EMAIL_MAX}
            onInput={(value) => model.set(dedication.email, value, "dedicationEmail")}
          />
        </>
      ) : null}
    </>
  );
});

/** The options the nonprofit turned on: anonymous, pledge wall, a message, the SMS opt-in. */
function donorOptions({ model, t, errorFor }: OptionsProps) {
  const d = t.donate;
  const { asks, requires } = model;
  if (!(["anonymous", "pledge-wall", "memo", "dedication", "sms"] as const).some(asks)) return null;
  const smsProgram = model.props.programName ?? d.smsProgramFallback;
  const { termsUrl, privacyUrl } = model.props;
  return (
    <fieldset>
      <legend part="legend">{d.optionsLegend}</legend>
      {asks("anonymous") ? (
        <Checkbox
          field="anonymous"
          label={d.anonymous}
          checked={model.anonymous.value}
          onChange={(checked) => model.set(model.anonymous, checked)}
        />
      ) : null}
      {asks("pledge-wall") ? (
        <Checkbox
          field="pledgeWall"
          label={d.pledgeWall}
          checked={model.pledgeWall.value}
          onChange={(checked) => model.set(model.pledgeWall, checked)}
        />
      ) : null}
      {asks("memo") ? (
        <TextField
          field="memo"
          label={d.memo}
          optional={requires("memo") ? null : t.common.optional}
          value={model.memo.value}
          error={errorFor("memo")}
          autocomplete="off"
          maxLength={MEMO_MAX}
          multiline
          onInput={(value) => model.set(model.memo, value, "memo")}
        />
      ) : null}
      {asks("dedication") ? <DedicationFields model={model} t={t} errorFor={errorFor} /> : null}
      {asks("sms") ? (
        <>
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
        </>
      ) : null}
    </fieldset>
  );
}

/**
 * The donation form: amount, attribution, donor, card, options, and one clear button. In steps
 * (layout="steps") every step stays on the page, the others hidden, so nothing entered is lost
 * and the card frame is loaded once; on one page (layout="single") all of it shows at once.
 */
export class DonationForm extends Reactive<DonationFormProps> {
  /** The step just moved on to, read out, as its first field (not its heading) has the focus. */
  #stepNews = "";

  /**
   * Shows a step of `form`, and once it is on the screen focuses, going back, its heading;
   * going on, its first field (the card's in the frame), which saves the donor a Tab press per
   * step, the heading read out instead. A frame not loaded yet leaves the focus on the heading.
   */
  #show(form: HTMLFormElement | null, step: number, forward: boolean) {
    const { model, card, t } = this.props;
    model.step.value = step;
    this.#stepNews = forward ? (t.donate.steps[step] ?? "") : "";
    this.forceUpdate(() => {
      const heading = form?.querySelector<HTMLElement>(`#gk-step-${step}`);
      const section = heading?.parentElement;
      if (forward && section) {
        const field = section.querySelector<HTMLElement>("input, select, textarea");
        if (field) field.focus();
        if (field || (section.querySelector("iframe") && card.start())) return;
      }
      heading?.focus();
    });
  }

  #onBack = (event: TargetedEvent<HTMLButtonElement>) => {
    // Back one step (the button shows from the second on); everything entered stays.
    this.#show(event.currentTarget.form, this.props.model.step.peek() - 1, false);
  };

  #onSubmit = async (event: TargetedEvent<HTMLFormElement, SubmitEvent>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { model, card, host } = this.props;
    this.#stepNews = "";
    const steps = model.props.layout === "steps";
    const result = await (steps && model.step.peek() < LAST_STEP ? model.next() : model.submit());
    const outcome = model.status.peek();
    if (result.kind === "next") this.#show(form, model.step.peek(), true);
    else if (result.kind === "invalid" || result.kind === "failed") {
      const first = result.kind === "invalid" ? result.fields[0] : null;
      // In steps, the first problem's step is shown, and its field focused once it is.
      if (steps && first) model.step.value = stepOf(first);
      this.forceUpdate(() => {
        if (first === "card") card.focus();
        else if (first) focusField(form, first);
        else form.querySelector<HTMLElement>("[type=submit]")?.focus();
      });
      emit(host, "givekit:error", { code: result.code ?? "validation_failed" });
    } else if (outcome.kind === "success" || outcome.kind === "pending") {
      const success = outcome.kind === "success";
      const context = giftContext(
        model.props.target,
        model.campaign.peek()?.currency ?? "USD",
        outcome.frequency,
        location.search,
      );
      const amount = fromCents(outcome.totalCents);
      const told = (said: "Success" | "Pending" | "NotCharged", transactionId: string | null) => {
        emit(host, "givekit:donation", {
          ...context,
          status: said,
          amount,
          frequency: outcome.frequency,
          transaction_id: transactionId,
        });
        if (said !== "Success" || !transactionId) return;
        // A charge came through the attempt, which later.ts made: it is there.
        if (model.props.dataLayer) laterIfLoaded()?.pushPurchase(context, amount, transactionId);
        const next = model.successUrl();
        // The thank-you is read first; then the nonprofit's own page takes over.
        if (next) setTimeout(() => location.assign(next), SUCCESS_REDIRECT_MS);
      };
      told(success ? "Success" : "Pending", success ? outcome.transactionId : null);
      if (success) return;
      // The form is gone by now; the model keeps asking, and the page hears how it ended.
      const final = await model.follow();
      const end = model.status.peek();
      if (final) told(final, end.kind === "success" ? end.transactionId : null);
    }
  };

  view({ model, card, host, t, locale }: DonationFormProps) {
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
    const steps = model.props.layout === "steps";
    const step = model.step.value;

    const gift = (
      <>
        <FrequencyPicker model={model} t={t} />
        <AmountPicker model={model} t={t} locale={locale} error={errorFor("amount")} />
        <PeerPicker model={model} t={t} locale={locale} error={errorFor("peer")} />
      </>
    );
    const donor = <DonorFields model={model} t={t} locale={locale} errorFor={errorFor} />;
    const options = donorOptions({ model, t, errorFor });
    const cardField = (
      <CardField
        card={card}
        host={host}
        proxyUrl={model.props.proxyUrl}
        locale={locale}
        t={t}
        error={errorFor("card")}
        target={model.props.target}
      />
    );
    /** A step: its count and heading, shown alone; the others stay on the page, hidden. */
    const section = (index: number, children: ComponentChildren) => (
      <div class="gk-step" hidden={step !== index}>
        <h3 id={`gk-step-${index}`} tabIndex={-1}>
          {d.steps[index]}
        </h3>
        {children}
      </div>
    );
    const donate =
      total === null ? d.submit("", "").trim() : d.submit(formatMoney(total, currency, locale), per);

    return (
      <form
        part="form"
        noValidate
        onSubmit={this.#onSubmit}
        aria-labelledby={HEADING_ID}
        aria-busy={busy ? "true" : "false"}
      >
        {steps ? (
          <>
            {section(0, gift)}
            {section(
              1,
              <>
                {donor}
                {options}
              </>,
            )}
            {section(2, cardField)}
          </>
        ) : (
          <>
            {gift}
            {donor}
            {cardField}
            {options}
          </>
        )}
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
          text={busy ? d.submitting : errorCount > 0 ? t.common.fixErrors(errorCount) : this.#stepNews}
        />
        {/* Back after the button that goes on, so Tab from the last field reaches that first. */}
        <div class="gk-actions">
          <button type="submit" part="submit" disabled={busy}>
            {busy ? (
              <>
                <span class="gk-spinner" aria-hidden="true" />
                {d.submitting}
              </>
            ) : steps && step < LAST_STEP ? (
              d.next
            ) : (
              donate
            )}
          </button>
          {steps && step > 0 ? (
            <button type="button" class="gk-link" part="link" disabled={busy} onClick={this.#onBack}>
              {d.back}
            </button>
          ) : null}
        </div>
      </form>
    );
  }
}
