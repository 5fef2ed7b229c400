import type { Messages } from "../../i18n";
import { Checkbox, ExternalLink } from "../../shared/Field";
import { TextField } from "../../shared/TextField";
import { reactive } from "../../shared/reactive";
import { MEMO_MAX } from "../../../contract/patterns";
import type { DonateField } from "../base/fields";
import type { DonationModel } from "../DonationModel";

export interface OptionsProps {
  model: DonationModel;
  t: Messages;
  errorFor: (field: DonateField) => string | null;
}

/** The options the nonprofit turned on: anonymous, pledge wall, a message, a dedication, the SMS opt-in. */
export const DonorOptions = reactive(({ model, t, errorFor }: OptionsProps) => {
  const d = t.donateLater;
  const donor = model.donor()!;
  const { asks, requires } = donor;
  // A dedication's fields are an extra, fetched with later.ts when `fields` asks for one.
  const Later = model.later.value!;
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
          checked={donor.anonymous.value}
          onChange={(checked) => model.set(donor.anonymous, checked)}
        />
      ) : null}
      {asks("pledge-wall") ? (
        <Checkbox
          field="pledgeWall"
          label={d.pledgeWall}
          checked={donor.pledgeWall.value}
          onChange={(checked) => model.set(donor.pledgeWall, checked)}
        />
      ) : null}
      {asks("memo") ? (
        <TextField
          field="memo"
          label={d.memo}
          optional={requires("memo") ? null : t.common.optional}
          value={donor.memo.value}
          error={errorFor("memo")}
          autocomplete="off"
          maxLength={MEMO_MAX}
          multiline
          onInput={(value) => model.set(donor.memo, value, "memo")}
        />
      ) : null}
      {asks("dedication") && Later.DedicationFields ? (
        <Later.DedicationFields model={model} t={t} errorFor={errorFor} />
      ) : null}
      {asks("sms") ? (
        <>
          <Checkbox
            field="smsOptIn"
            label={d.smsOptIn(smsProgram)}
            checked={donor.smsOptIn.value}
            onChange={(checked) => model.set(donor.smsOptIn, checked, "phone")}
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
});
