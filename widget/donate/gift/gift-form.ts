import type { ReadonlySignal } from "@preact/signals-core";
import type { CampaignResponse } from "../../../contract/api";
import type { Locale, Messages } from "../../i18n";
import type { DonateProps } from "../base/attributes";
import type { FormEdits } from "../base/fields";
import type { GiftModel } from "./gift";

/** What the gift's step needs of the form (DonationModel gives it). */
export interface GiftForm extends FormEdits {
  gift: GiftModel;
  campaign: ReadonlySignal<CampaignResponse | null>;
  props: DonateProps;
  /** The rest of the form's models, there once it and its words are (the monthly invitation's words are among them). */
  rest: ReadonlySignal<object | null>;
  chooseAmount(choice: number | "other"): void;
  typeAmount(value: string): void;
}

export interface PickerProps {
  model: GiftForm;
  t: Messages;
  locale: Locale;
  error: string | null;
}
