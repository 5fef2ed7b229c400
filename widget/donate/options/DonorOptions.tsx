import type { Messages } from "../../i18n";
import { Checkbox } from "../../shared/Field";
import { ExternalLink } from "../../shared/ExternalLink";
import { TextField } from "../../shared/TextField";
import { reactive } from "../../shared/reactive";
import { MEMO_MAX } from "../../../contract/patterns";
import type { DonateProps } from "../base/attributes";
import type { DonateField, FormEdits } from "../base/fields";
import type { DonorModel } from "../donor/donor";
import type { DedicationModel } from "./dedication-model";
import { DedicationFields } from "./dedication-fields";
import { optionsProblemText } from "./problem-text";

interface OptionsProps {
  /** Made with later.ts, as this component was. */
  donor: DonorModel;
  /** A dedication's state, made with later.ts when `fields` asks for one. */
  dedication: DedicationModel | null | undefined;
  form: FormEdits;
  props: Pick<DonateProps, "programName" | "termsUrl" | "privacyUrl">;
  t: Messages;
}

/** The options the nonprofit turned on: anonymous, pledge wall, a message, a dedication, the SMS opt-in. */
export const DonorOptions = reactive(({ donor, dedication, form, props, t }: OptionsProps) => {
  const d = t.donateLater;
  const { asks, requires } = donor;
  if (!(["anonymous", "pledge-wall", "memo", "dedication", "sms"] as const).some(asks)) return null;
  const errors = form.errors.value;
  const errorFor = (field: DonateField) => {
    const problem = errors[field];
    return problem ? optionsProblemText(t, field, problem) : null;
  };
  const smsProgram = props.programName ?? d.smsProgramFallback;
  const { termsUrl, privacyUrl } = props;
  return (
    <fieldset>
      <legend part="legend">{d.optionsLegend}</legend>
      {asks("anonymous") ? (
        <Checkbox
          field="anonymous"
          label={d.anonymous}
          checked={donor.anonymous.value}
          onChange={(checked) => form.set(donor.anonymous, checked)}
        />
      ) : null}
      {asks("pledge-wall") ? (
        <Checkbox
          field="pledgeWall"
          label={d.pledgeWall}
          checked={donor.pledgeWall.value}
          onChange={(checked) => form.set(donor.pledgeWall, checked)}
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
          onInput={(value) => form.set(donor.memo, value, "memo")}
        />
      ) : null}
      {asks("dedication") && dedication ? (
        // later.ts's text field, handed down: the extra comes after it, so it carries no copy (nor a chunk they share).
        <DedicationFields dedication={dedication} form={form} t={t} TextField={TextField} />
      ) : null}
      {asks("sms") ? (
        <>
          <Checkbox
            field="smsOptIn"
            label={d.smsOptIn(smsProgram)}
            checked={donor.smsOptIn.value}
            onChange={(checked) => form.set(donor.smsOptIn, checked, "phone")}
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
