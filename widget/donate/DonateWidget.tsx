import { dropCardFrame, themeCardFrame } from "../shared/card-frame";
import { emit } from "../shared/events";
import { Reactive } from "../shared/reactive";
import { createApiClient } from "../shared/api-client";
import { giftContext } from "./base/analytics";
import { h as createElement } from "preact";
import { signal } from "@preact/signals-core";
import { readDonateAttributes } from "./base/attributes";
import { lazy, lazyModule } from "./base/lazy";
import { readCampaign } from "./base/responses";
import { campaignPath } from "./campaign/campaign";
import { DonationForm, HEADING_ID } from "./DonationForm";
import { rest } from "./rest";
import { createDonationModel, type DonationModel } from "./DonationModel";
import { amountWithinRange, prefill } from "./gift/prefill";
import type { SavedFormKit, WidgetProps } from "./saved/SavedForm";
// Last: widget.js lays modules out in import order, and gzip does best with the message
// catalogs after the code that reads them rather than ahead of zod (about 0.4 KB).
import { Fallback } from "../shared/Fallback";
import { isRtl, loadMessages, messagesFor } from "../i18n";
import { LanguageSwitch } from "../shared/LanguageSwitch";

export type { WidgetProps };

/** How a donation ended, in the rest of the form (rest.ts), as the attempt is. */
const Outcome = lazy(rest, "Outcome");
/**
 * What a saved form's chunk draws and reads with, handed to it rather than imported by it (see
 * saved/SavedForm.ts): this chunk's Preact, signals and readers, one instance of each on the page.
 * A list, not an object: no property names in every page's bytes.
 */
const SAVED_FORM_KIT = [
  createElement,
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
] as const satisfies SavedFormKit;
/** A saved form (`form="year-end"`), a chunk widget.js fetches beside this one only for such an element. */
const SavedForm = lazy(
  lazyModule(() => import("./saved/SavedForm")),
  "SavedForm",
);

/** <givekit-donate>'s content: loads the campaign, then shows the form or the outcome. */
export function DonateWidget(props: WidgetProps) {
  if (!props.loaded && props.host.hasAttribute("form")) return <SavedForm {...props} kit={SAVED_FORM_KIT} />;
  const { host: _host, locale: _locale, ...given } = props;
  // A new model (and a fresh form) only when the attributes change what is being given to: a
  // change of language keeps the form and what the donor typed.
  return <Donation key={JSON.stringify(given)} {...props} />;
}

class Donation extends Reactive<WidgetProps> {
  model: DonationModel;
  live = true;

  constructor(props: WidgetProps) {
    super(props);
    this.model = createDonationModel({
      api: createApiClient(props.proxyUrl),
      // A link's ?amount= and ?frequency= over the element's defaults.
      props: prefill(props, location.search),
      search: location.search,
      loaded: props.loaded,
    });
  }

  override componentDidMount() {
    const { host } = this.props;
    void this.model.load().then((state) => {
      if (!this.live) return;
      if (state !== "ready") {
        dropCardFrame(host);
        return emit(host, "givekit:error", { code: "campaign_not_served" });
      }
      // The form shows: its card frame takes its look (and only then asks for a form session).
      themeCardFrame(host, new URL(this.props.proxyUrl).origin);
      const { model } = this;
      const campaign = model.campaign.peek()!;
      const start = amountWithinRange(model.gift.amountCents.peek(), model.props, campaign);
      if (start === "other") model.set(model.gift.otherAmount, "");
      if (start !== null) model.chooseAmount(start);
      const currency = campaign.currency;
      const context = giftContext(model.props.target, currency, model.gift.frequency.peek(), location.search);
      emit(host, "givekit:ready", { widget: "donate", ...context });
    });
  }

  override componentWillUnmount() {
    this.live = false;
    // No more lookups of a Pending donation once the element is gone.
    this.model.stopFollowing();
    super.componentWillUnmount();
  }

  view({ host, locale, locales, heading, layout }: WidgetProps) {
    const { model } = this;
    // The model reads its language when it says something (the SMS disclosure, the rest's words).
    model.props.locale = locale;
    const t = messagesFor(locale);
    const state = model.loadState.value;
    const status = model.status.value;
    if (state === "unavailable") return <Fallback lang={locale} />;
    return (
      // Its own language, as the opt-in form says its own: a Spanish form on an English page is read in Spanish.
      // While the campaign loads, the whole form keeps the room widget.js gave it (room.css).
      // Arabic reads right to left: the layout follows by logical properties (donate.css).
      <div
        lang={locale}
        dir={isRtl(locale) ? "rtl" : "ltr"}
        class={`gk-${layout}${state === "loading" ? " gk-loading" : ""}`}
      >
        {locales?.includes(",") ? (
          <div class="gk-language-room">
            <LanguageSwitch host={host} locale={locale} locales={locales} label={t.common.language} />
          </div>
        ) : null}
        <h2 id={HEADING_ID} part="heading">
          {heading ?? t.donate.heading}
        </h2>
        {state === "loading" ? (
          <output class="gk-muted">{t.donate.loading}</output>
        ) : status.kind === "success" || status.kind === "pending" ? (
          <Outcome
            status={status}
            currency={model.campaign.value?.currency ?? "USD"}
            locale={locale}
            t={t}
            dedication={model.rest.peek()?.dedication?.value() ?? null}
            onAgain={() => model.reset()}
          />
        ) : (
          <DonationForm model={model} host={host} t={t} locale={locale} />
        )}
      </div>
    );
  }
}
