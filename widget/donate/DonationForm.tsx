import type { ComponentChildren, TargetedEvent } from "preact";
import type { Locale, Messages } from "../i18n";
import { emit } from "../shared/events";
import { formatMoney } from "../shared/format";
import { lazy } from "./base/lazy";
import { rest } from "./rest";
import { AmountPicker, FrequencyPicker } from "./gift/AmountPicker";
import { LAST_STEP, stepOf, type DonateField } from "./base/fields";
import type { DonationModel } from "./DonationModel";
import { focusOnMount, Reactive } from "../shared/reactive";
import { Announce, focusField } from "../shared/Field";
import { PeerPicker } from "./peers/PeerPicker";
import { giftProblemText } from "./gift/problem-text";

/** The steps after the gift's, in the rest of the form (rest.ts), there once the model is. */
const DonorFields = lazy(rest, "DonorFields");
const DonorOptions = lazy(rest, "DonorOptions");
const CardField = lazy(rest, "CardField");

/** The widget's heading, which names the form. */
export const HEADING_ID = "gk-heading";

interface DonationFormProps {
  model: DonationModel;
  host: HTMLElement;
  t: Messages;
  locale: Locale;
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
    const { model, t } = this.props;
    model.step.value = step;
    this.#stepNews = forward ? (t.donate.steps[step] ?? "") : "";
    this.forceUpdate(() => {
      const heading = form?.querySelector<HTMLElement>(`#gk-step-${step}`);
      const section = heading?.parentElement;
      if (forward && section) {
        const field = section.querySelector<HTMLElement>("input, select, textarea");
        if (field) field.focus();
        if (field || (section.querySelector("slot") && model.rest.peek()?.cardPort.start())) return;
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
    const { model, host } = this.props;
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
        if (first === "card") model.rest.peek()?.cardPort.focus();
        else if (first) focusField(form, first);
        else form.querySelector<HTMLElement>("[type=submit]")?.focus();
      });
      emit(host, "givekit:error", { code: result.code ?? "validation_failed" });
    } else if (outcome.kind === "success" || outcome.kind === "pending") {
      // The attempt came with the rest of the form (later.ts), and so does what tells the page.
      await rest.loaded.peek()!.tellDonation(host, model, outcome);
    }
  };

  view({ model, host, t, locale }: DonationFormProps) {
    const d = t.donate;
    const campaign = model.campaign.value;
    const currency = campaign?.currency ?? "USD";
    const status = model.status.value;
    const errors = model.errors.value;
    const busy = model.busy.value;
    // Waiting through an open circuit breaker (outcome/attempt.ts) says so, with a way out.
    const sending =
      status.kind === "submitting" && status.checking ? t.donateLater!.outcome.checking : d.submitting;
    const total = model.gift.totalCents.value;
    const per = d.per[model.gift.frequency.value];
    const errorFor = (field: DonateField) => {
      const problem = errors[field];
      return problem ? giftProblemText(t, field, problem, campaign, locale) : null;
    };
    // The steps after the gift's, once the rest of the form and its words are here (and with them their models).
    const { donor, dedication, cardPort } = model.rest.value ?? {};
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
    const donorFields = donor && <DonorFields donor={donor} form={model} t={t} locale={locale} />;
    const options = donor && (
      <DonorOptions donor={donor} dedication={dedication} form={model} props={model.props} t={t} />
    );
    const cardField = cardPort && (
      <CardField
        card={cardPort}
        form={model}
        host={host}
        proxyUrl={model.props.proxyUrl}
        locale={locale}
        t={t}
        problem={errors.card}
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
                {donorFields}
                {options}
              </>,
            )}
            {section(2, cardField)}
          </>
        ) : (
          <>
            {gift}
            {donorFields}
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
            {
              // Before later.ts and its words are here only a network error can end an attempt: it is common's.
              { ...t.common, ...t.donateLater?.outcome }[status.failure]
            }
          </p>
        ) : null}
        <Announce
          attempt={model.refusals.value}
          text={busy ? sending : errorCount > 0 ? t.common.fixErrors(errorCount) : this.#stepNews}
        />
        {/* Back after the button that goes on, so Tab from the last field reaches that first. */}
        <div class="gk-actions">
          <button type="submit" part="submit" disabled={busy}>
            {busy ? (
              <>
                <span class="gk-spinner" aria-hidden="true" />
                {sending}
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
