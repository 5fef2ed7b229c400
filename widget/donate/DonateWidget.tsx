import { dropCardFrame, themeCardFrame } from "../shared/card-frame";
import { emit } from "../shared/events";
import { Reactive } from "../shared/reactive";
import { createApiClient } from "../shared/api-client";
import { giftContext } from "./base/analytics";
import type { DonateProps } from "./base/attributes";
import { lazy } from "./base/lazy";
import { DonationForm, HEADING_ID } from "./DonationForm";
import { rest } from "./rest";
import { createDonationModel, type DonationModel } from "./DonationModel";
import { amountWithinRange, prefill } from "./gift/prefill";
import { signal } from "@preact/signals-core";
import type { CampaignResponse } from "../../contract/api";
import { campaignPath, fetchCampaign } from "./campaign/campaign";
import { adoptTheme, withSavedForm } from "./saved/saved-form";
// Last: widget.js lays modules out in import order, and gzip does best with the message
// catalogs after the code that reads them rather than ahead of zod (about 0.4 KB).
import { Fallback } from "../shared/Fallback";
import { messagesFor } from "../i18n";

type WidgetProps = DonateProps & { host: HTMLElement; loaded?: CampaignResponse };

/** How a donation ended, in the rest of the form (rest.ts), as the attempt is. */
const Outcome = lazy(rest, "Outcome");

/** <givekit-donate>'s content: loads the campaign, then shows the form or the outcome. */
export function DonateWidget(props: WidgetProps) {
  if (props.savedForm && !props.loaded) return <SavedForm {...props} />;
  const { host: _host, ...given } = props;
  // A new model (and a fresh form) only when the attributes change what is being given to.
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

  view({ host, locale, heading, layout }: WidgetProps) {
    const { model } = this;
    const t = messagesFor(locale);
    const state = model.loadState.value;
    const status = model.status.value;
    if (state === "unavailable") return <Fallback lang={locale} />;
    return (
      // Its own language, as the opt-in form says its own: a Spanish form on an English page is read in Spanish.
      // While the campaign loads, the whole form keeps the room widget.js gave it (room.css).
      <div lang={locale} class={`gk-${layout}${state === "loading" ? " gk-loading" : ""}`}>
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

/**
 * A saved form (`form="year-end"`): its design comes with the campaign's settings, in the request
 * the form makes anyway, and is laid under the element's own attributes. While the form is open,
 * the rest of the form (saved/follow.ts) asks again now and then; a newer version is taken while
 * the donor has not started, and otherwise waits for the next page: what a donor typed, or is
 * giving, is never changed under them.
 */
class SavedForm extends Reactive<WidgetProps> {
  answer = signal<CampaignResponse | null | undefined>(undefined);
  started = false;
  live = true;
  stop?: () => void;
  #start = () => (this.started = true);

  override componentDidMount() {
    const { host, proxyUrl, target, savedForm } = this.props;
    for (const type of STARTS) host.addEventListener(type, this.#start);
    void fetchCampaign(createApiClient(proxyUrl), target, savedForm).then((answer) => {
      if (!this.live) return;
      this.take(answer);
      if (!answer) dropCardFrame(host);
    });
    rest.preload().then(
      ({ followSavedForm }) =>
        this.live &&
        (this.stop = followSavedForm(
          proxyUrl,
          campaignPath(target, savedForm),
          () => this.answer.peek()?.form?.version,
          () => this.started,
          (answer) => this.take(answer),
        )),
      () => undefined,
    );
  }

  take(answer: CampaignResponse | null) {
    const { host } = this.props;
    if (answer) {
      const merged = withSavedForm(host, answer);
      if (!merged.ok) {
        console.error(
          `[givekit] <givekit-donate>: the saved form "${this.props.savedForm}": ${merged.problem}`,
        );
        answer = null;
      } else adoptTheme(host, answer);
    }
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
