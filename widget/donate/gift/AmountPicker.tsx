import { rateToMicros, toCents } from "../../../contract/money";
import { formatMoney } from "../../shared/format";
import { OTHER_AMOUNT_MAX } from "./gift";
import type { PickerProps } from "./gift-form";
import { MonthlyPrompt } from "./monthly-prompt";
import { Checkbox, Choices, describedBy, FieldError, fieldId, hintId } from "../../shared/Field";
import { reactive } from "../../shared/reactive";

/** One-time or recurring, as a named radio group; hidden when only one is offered. */
export const FrequencyPicker = reactive(({ model, t }: Omit<PickerProps, "locale" | "error">) => {
  const frequencies = model.gift.frequencies.value;
  if (frequencies.length < 2) return null;
  return (
    <Choices
      field="frequency"
      legend={t.donate.frequencyLegend}
      choices={frequencies}
      labelOf={(frequency) => t.donate.frequency[frequency]}
      chosen={model.gift.frequency.value}
      onChoose={(frequency) => model.gift.chooseFrequency(frequency)}
    />
  );
});

/** Preset amounts as a radio group, an "other" amount, and the fee the donor may cover. */
export const AmountPicker = reactive(({ model, t, locale, error }: PickerProps) => {
  const d = t.donate;
  const campaign = model.campaign.value;
  const currency = campaign?.currency ?? "USD";
  const choice = model.gift.amountChoice.value;
  const presets = model.gift.presets.value;
  const range = campaign
    ? d.amountRange(
        formatMoney(toCents(campaign.min_amount), currency, locale),
        formatMoney(toCents(campaign.max_amount), currency, locale),
      )
    : null;
  const fee = model.gift.feeAmountCents.value;
  const feeMode = model.props.coverFee;
  const hasFee = campaign !== null && rateToMicros(campaign.fee_rate) > 0 && feeMode !== "off";
  const feeText = formatMoney(fee, currency, locale);
  const noAmount = model.gift.amountCents.value === null;
  return (
    <>
      <fieldset
        data-field="amount"
        aria-describedby={describedBy("amount", choice === "other" ? null : error, range)}
      >
        <legend part="legend">{d.amountLegend}</legend>
        {range ? (
          <p id={hintId("amount")} class="gk-hint">
            {range}
          </p>
        ) : null}
        <div class="gk-chips">
          {presets.amounts.map((cents) => (
            <label
              class={presets.labels[cents] ? "gk-chip gk-described" : "gk-chip"}
              key={cents}
              part="amount"
            >
              <input
                type="radio"
                name="amount"
                value={String(cents)}
                checked={choice === cents}
                onChange={() => model.chooseAmount(cents)}
              />
              {/* What the amount does is part of its name: "$25 A week of meals". */}
              <span>
                {formatMoney(cents, currency, locale, true)}
                {presets.labels[cents] ? (
                  <>
                    {" "}
                    <small part="amount-description">{presets.labels[cents]}</small>
                  </>
                ) : null}
              </span>
            </label>
          ))}
          <label class="gk-chip" part="amount">
            <input
              type="radio"
              name="amount"
              value="other"
              checked={choice === "other"}
              onChange={() => model.chooseAmount("other")}
            />
            <span>{d.otherAmount}</span>
          </label>
        </div>
        {choice === "other" ? (
          <div class="gk-field">
            <label for={fieldId("amount")} part="label">
              {d.otherAmountLabel}
            </label>
            <input
              id={fieldId("amount")}
              name="other-amount"
              type="text"
              inputMode="decimal"
              autocomplete="off"
              maxLength={OTHER_AMOUNT_MAX}
              value={model.gift.otherAmount.value}
              required
              aria-invalid={error ? "true" : undefined}
              aria-describedby={describedBy("amount", error, range)}
              part="input"
              onInput={(event) => model.typeAmount(event.currentTarget.value)}
            />
          </div>
        ) : null}
        <FieldError field="amount" error={error} />
      </fieldset>
      {/* The invitation shows once an amount is chosen; it comes beside later.ts, fetched as the form opened. */}
      {model.props.monthlyPrompt !== null && model.rest.value ? (
        <MonthlyPrompt model={model} t={t} locale={locale} currency={currency} />
      ) : null}
      {!hasFee ? null : feeMode === "required" ? (
        <p class="gk-hint" part="fee">
          {noAmount ? d.feeIncludedAny : d.feeIncluded(feeText)}
        </p>
      ) : (
        <Checkbox
          field="cover-fee"
          label={noAmount ? d.coverFeeAny : d.coverFee(feeText)}
          checked={model.gift.coverFee.value}
          onChange={(checked) => model.set(model.gift.coverFee, checked)}
        />
      )}
    </>
  );
});
