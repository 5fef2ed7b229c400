import { signal } from "@preact/signals-core";
import type { CampaignResponse } from "../../../contract/api";
import { FORM_NAME_EXPECTED, FORM_NAME_PATTERN } from "../../../contract/saved-forms";
import { dropCardFrame } from "../../shared/card-frame";
import { createApiClient } from "../../shared/api-client";
import { isFiniteNumber, isObject, isPlainObject, isText, pattern, readShape } from "../../shared/checks";
import { Reactive } from "../../shared/reactive";
import { Fallback } from "../../shared/Fallback";
import { readCampaign } from "../base/responses";
import { campaignPath } from "../campaign/campaign";
import { DonateWidget, type WidgetProps } from "../DonateWidget";
import { followSavedForm } from "./follow";
import { adoptTheme, withSavedForm } from "./saved-form";

/**
 * A saved form's code (`form="year-end"`), in the rest of the form (later.ts): widget.js fetches
 * that chunk beside the donate chunk for an element with a `form` attribute, so a page without one
 * loads none of it in its first step.
 */

/** Text values by name, as z.record(z.string(), z.string()) takes them. */
const isTextRecord = (value: unknown) => isPlainObject(value) && Object.values(value).every(isText);

/** A saved form (contract/api.ts ServedFormSchema). */
const readServedForm = (value: unknown) =>
  readShape<NonNullable<CampaignResponse["form"]>>(
    value,
    {
      name: pattern(FORM_NAME_PATTERN),
      version: (v) => isFiniteNumber(v) && Number.isInteger(v) && (v as number) > 0,
      attributes: isTextRecord,
      theme: isTextRecord,
    },
    true,
  );

/**
 * The campaign's answer to `?form=`: its settings as readCampaign reads them (which knows no
 * `form`: a page without one never gets it) and the saved form beside them.
 *
 * @example
 * readServedCampaign({ ...HOPE, form: { name: "year-end", version: 2, attributes: {}, theme: {} } });
 */
export function readServedCampaign(body: unknown): CampaignResponse | null {
  if (!isObject(body)) return null;
  const { form, ...settings } = body;
  const campaign = readCampaign(settings);
  if (!campaign || form === undefined) return campaign;
  const served = readServedForm(form);
  return served && { ...campaign, form: served };
}

/**
 * A saved form: its design comes with the campaign's settings, in the request the form makes
 * anyway (widget.js asked for it early), and is laid under the element's own attributes. While
 * the form is open, it asks again now and then (follow.ts); a newer version
 * is taken while the donor has not started, and otherwise waits for the next page: what a donor
 * typed, or is giving, is never changed under them.
 */
export class SavedForm extends Reactive<WidgetProps> {
  answer = signal<CampaignResponse | null | undefined>(undefined);
  started = false;
  live = true;
  stop?: () => void;
  #start = () => (this.started = true);

  override componentDidMount() {
    const { host, proxyUrl, target } = this.props;
    const name = host.getAttribute("form")!;
    if (!FORM_NAME_PATTERN.test(name)) {
      // As a bad attribute is told (widget/shared/attributes.ts).
      console.error(`[givekit] <givekit-donate>: the "form" attribute must be ${FORM_NAME_EXPECTED}.`);
      return this.take(null);
    }
    // A slug: nothing to encode, as widget.js's early request has it (campaign.ts earlyCampaignPath).
    const path = campaignPath(target);
    const withForm = `${path}${path.includes("?") ? "&" : "?"}form=${name}`;
    for (const type of STARTS) host.addEventListener(type, this.#start);
    void createApiClient(proxyUrl)
      .get<unknown>(withForm)
      .then((result) => {
        const answer = result.kind === "ok" ? readServedCampaign(result.data) : null;
        // As fetchCampaign says why (campaign.ts), the saved form named.
        if (!answer)
          console.error(
            `[givekit] <givekit-donate>: the saved form "${name}" could not be loaded (${
              result.kind === "ok"
                ? "an unexpected answer"
                : result.kind === "problem"
                  ? result.problem.code
                  : "the proxy could not be reached"
            }).`,
          );
        if (this.live) this.take(answer);
      });
    this.stop = followSavedForm(
      proxyUrl,
      withForm,
      readServedCampaign,
      () => this.answer.peek()?.form?.version,
      () => this.started,
      (answer) => this.take(answer),
    );
  }

  take(answer: CampaignResponse | null) {
    const { host } = this.props;
    if (answer) {
      const merged = withSavedForm(host, answer);
      if (!merged.ok) {
        console.error(`[givekit] <givekit-donate>: the saved form "${answer.form?.name}": ${merged.problem}`);
        answer = null;
      } else adoptTheme(host, answer);
    }
    if (!answer) dropCardFrame(host);
    this.answer.value = answer;
  }

  override componentWillUnmount() {
    this.live = false;
    this.stop?.();
    for (const type of STARTS) this.props.host.removeEventListener(type, this.#start);
    super.componentWillUnmount();
  }

  view({ host, locale }: WidgetProps) {
    const answer = this.answer.value;
    // While it loads, the room widget.js gave the form (room.css), as the element's own placeholder.
    if (answer === undefined) return <div class="gk-loading" />;
    const merged = answer && withSavedForm(host, answer);
    if (!answer || !merged?.ok) return <Fallback lang={locale} />;
    return <DonateWidget {...merged.props} host={host} loaded={answer} />;
  }
}

/** What a donor does that starts their gift: from then on, the form they began stays. */
const STARTS = ["input", "pointerdown", "keydown"];
