import type { ReadonlySignal, Signal, signal } from "@preact/signals-core";
import type { ComponentType, h } from "preact";
import type { CampaignResponse } from "../../../contract/api";
import { FORM_NAME_EXPECTED, FORM_NAME_PATTERN } from "../../../contract/saved-form-names";
import type { createApiClient } from "../../shared/api-client";
import type { dropCardFrame } from "../../shared/card-frame";
import type { Fallback } from "../../shared/Fallback";
import type { loadMessages } from "../../i18n";
import type { Reactive } from "../../shared/reactive";
import type { DonateProps, readDonateAttributes } from "../base/attributes";
import type { readCampaign } from "../base/responses";
import type { campaignPath } from "../campaign/campaign";
import { followSavedForm } from "./follow";
import { adoptTheme, withSavedForm } from "./saved-form";

/**
 * A saved form's code (`form="year-end"`), a chunk of its own that widget.js fetches beside the
 * donate chunk only for an element with a `form` attribute: a page without one loads none of it.
 * It imports nothing of the donate chunk: what it draws and reads with comes in `kit`
 * (DonateWidget.tsx). Were it to import them, the bundler (rolldown 1.2) would move the modules
 * the donate chunk shares with it and later.ts into a chunk of their own, one more request for
 * every page.
 */

type ServedForm = NonNullable<CampaignResponse["form"]>;

/** <givekit-donate>'s content's props (DonateWidget.tsx): the element's, and the campaign's answer when it is here already. */
export type WidgetProps = DonateProps & { host: HTMLElement; loaded?: CampaignResponse };

/** What the donate chunk hands this one (DonateWidget.tsx's SAVED_FORM_KIT), in this order. */
export type SavedFormKit = readonly [
  typeof h,
  typeof Reactive,
  typeof signal,
  typeof Fallback,
  ComponentType<WidgetProps>,
  typeof createApiClient,
  typeof campaignPath,
  typeof readCampaign,
  typeof readDonateAttributes,
  typeof dropCardFrame,
  typeof loadMessages,
];

/** Text values by name in a plain object, as z.record(z.string(), z.string()) takes them. */
const isTextRecord = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value)) &&
  Object.values(value).every((text) => typeof text === "string");

/** A saved form as contract/api.ts ServedFormSchema takes it (a strict object), or null. */
function readServedForm(value: unknown): ServedForm | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { name, version, attributes, theme, ...others } = value as Record<string, unknown>;
  return Object.keys(others).length === 0 &&
    typeof name === "string" &&
    FORM_NAME_PATTERN.test(name) &&
    Number.isSafeInteger(version) &&
    (version as number) > 0 &&
    isTextRecord(attributes) &&
    isTextRecord(theme)
    ? ({ name, version, attributes, theme } as ServedForm)
    : null;
}

/**
 * A reader of the campaign's answer to `?form=`: its settings as `readCampaign` reads them (which
 * knows no `form`: a page without one never gets it) and the saved form beside them.
 *
 * @example
 * servedCampaignReader(readCampaign)({ ...HOPE, form: { name: "year-end", version: 2, attributes: {}, theme: {} } });
 */
export const servedCampaignReader =
  (readCampaign: (body: unknown) => CampaignResponse | null) =>
  (body: unknown): CampaignResponse | null => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
    const { form, ...settings } = body as Record<string, unknown>;
    const campaign = readCampaign(settings);
    if (!campaign || form === undefined) return campaign;
    const served = readServedForm(form);
    return served && { ...campaign, form: served };
  };

/** What a donor does that starts their gift: from then on, the form they began stays. */
const STARTS = ["input", "pointerdown", "keydown"];

/**
 * The saved form's component, made with the donate chunk's `kit`: its design comes with the
 * campaign's settings, in the request the form makes anyway (widget.js asked for it early), and
 * is laid under the element's own attributes. While the form is open it asks again now and then
 * (follow.ts); a newer version is taken while the donor has not started, and otherwise waits for
 * the next page: what a donor typed, or is giving, is never changed under them.
 */
export function savedFormOf(kit: SavedFormKit) {
  const [
    h,
    Reactive,
    signal,
    Fallback,
    DonateWidget,
    createApiClient,
    campaignPath,
    readCampaign,
    readDonateAttributes,
    dropCardFrame,
    loadMessages,
  ] = kit;
  const readServedCampaign = servedCampaignReader(readCampaign);

  return class SavedDesign extends Reactive<WidgetProps> {
    answer: Signal<CampaignResponse | null | undefined> = signal(undefined);
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
        return void this.take(null);
      }
      // A slug: nothing to encode, as widget.js's early request has it (campaign.ts earlyCampaignPath).
      const path = campaignPath(target);
      const withForm = `${path}${path.includes("?") ? "&" : "?"}form=${name}`;
      const api = createApiClient(proxyUrl);
      for (const type of STARTS) host.addEventListener(type, this.#start);
      void api.get<unknown>(withForm).then((result) => {
        const answer = result.kind === "ok" ? readServedCampaign(result.data) : null;
        // As fetchCampaign says why (campaign.ts), with the saved form named.
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
        if (this.live) void this.take(answer);
      });
      this.stop = followSavedForm(
        api,
        withForm,
        readServedCampaign,
        () => (this.answer as ReadonlySignal<CampaignResponse | null | undefined>).peek()?.form?.version,
        () => this.started,
        (answer) => void this.take(answer),
      );
    }

    async take(answer: CampaignResponse | null) {
      const { host } = this.props;
      if (answer) {
        const merged = withSavedForm(host, answer, readDonateAttributes);
        if (!merged.ok) {
          console.error(
            `[givekit] <givekit-donate>: the saved form "${answer.form?.name}": ${merged.problem}`,
          );
          answer = null;
        } else {
          // A language the form's own attributes did not choose: its words before the form is drawn
          // (English's when they fail to come, as an element's are).
          await loadMessages(merged.props.locale);
          if (!this.live) return;
          adoptTheme(host, answer);
        }
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
      if (answer === undefined) return h("div", { class: "gk-loading" });
      const merged = answer && withSavedForm(host, answer, readDonateAttributes);
      if (!answer || !merged?.ok) return h(Fallback, { lang: locale });
      return h(DonateWidget, { ...merged.props, host, loaded: answer });
    }
  };
}

/** The component made once, with the first kit handed over (the donate chunk's: one per page). */
let made: ReturnType<typeof savedFormOf> | undefined;

/** `<givekit-donate form="…">`'s content until its design has come: the saved form, made with `kit`. */
export function SavedForm(props: WidgetProps & { kit: SavedFormKit }) {
  made ??= savedFormOf(props.kit);
  return props.kit[0](made, props);
}
