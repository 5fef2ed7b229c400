import type { TargetedEvent } from "preact";
import type { PickerProps } from "./gift-form";
import { formatMoney } from "../../shared/format";
import { focusField } from "../../shared/Field";
import { reactive } from "../../shared/reactive";
import { addStyles } from "../base/styles";
import { answerMonthly, monthlySuggestion } from "./monthly-offer";
import css from "./MonthlyPrompt.css?inline";

/** Its look comes with it: a form without the invitation loads none of it. */
const withLook = (node: HTMLFieldSetElement | null) => addStyles(node, css);

/**
 * `monthly-prompt`: once the donor has chosen a one-time amount, an offer to give a smaller
 * amount monthly instead, answered in one tap either way (the one-time gift can be given without
 * answering). The focus, on the button that goes away, moves to the amount chosen.
 */
export const MonthlyPrompt = reactive(
  ({ model, t, locale, currency }: Omit<PickerProps, "error"> & { currency: string }) => {
    const { gift, props, campaign } = model;
    const suggested = monthlySuggestion(gift, props.monthlyPrompt, campaign.value);
    const amount = gift.amountCents.value;
    if (suggested === null || amount === null) return null;
    const d = t.donateLater;
    const monthly = formatMoney(suggested, currency, locale, true);
    const answer = (accept: boolean) => (event: TargetedEvent<HTMLButtonElement>) => {
      const form = event.currentTarget.form;
      answerMonthly(gift, props.monthlyPrompt, campaign.peek(), accept);
      model.clearError("amount");
      requestAnimationFrame(() => focusField(form, "amount"));
    };
    return (
      <fieldset class="gk-prompt" part="monthly-prompt" ref={withLook}>
        <legend>{d.monthlyPrompt(monthly)}</legend>
        <p class="gk-hint">{d.monthlyPromptWhy}</p>
        <div class="gk-prompt-answers">
          <button type="button" part="button" onClick={answer(true)}>
            {d.monthlyYes(monthly)}
          </button>
          <button type="button" class="gk-link" part="link" onClick={answer(false)}>
            {d.monthlyNo(formatMoney(amount, currency, locale, true))}
          </button>
        </div>
      </fieldset>
    );
  },
);
