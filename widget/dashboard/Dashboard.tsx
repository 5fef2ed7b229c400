import { reactive } from "../shared/reactive";
import { PERIODS, type DashboardModel, type LiveStatus } from "./dashboard-model";
import type { Formats } from "./format";
import type { PanelWords } from "./i18n";
import { Defence, Funnel, Giving, Health, Segments } from "./panels";
import { Control, PageLinks, Select, SignedOut, StatusLine } from "./parts";

interface Props {
  model: DashboardModel;
  t: PanelWords;
  f: Formats;
}

const statusText = (status: LiveStatus, t: PanelWords, f: Formats) =>
  status.kind === "live" ? t.live(f.clock(status.at)) : status.kind === "reconnecting" ? t.reconnecting : "";

/** The view's controls: the period, and a campaign or all (the list the first figures bring). */
const Controls = reactive(({ model, t }: Props) => {
  const campaign = model.campaign.value;
  const campaigns = model.campaigns.value;
  return (
    <form class="controls" onSubmit={(event) => event.preventDefault()}>
      <Control id="period" label={t.period}>
        <Select
          id="period"
          value={model.period.value}
          options={PERIODS.map((p) => [p, t.periods[p]] as const)}
          onChange={(p) => model.setPeriod(p as (typeof PERIODS)[number])}
        />
      </Control>
      <Control id="campaign" label={t.campaign}>
        <Select
          id="campaign"
          value={campaign}
          options={
            campaigns
              ? [["", t.all], ...campaigns.map((c) => [c, c] as const)]
              : campaign
                ? [[campaign, campaign]]
                : []
          }
          onChange={(c) => model.setCampaign(c)}
        />
      </Control>
    </form>
  );
});

/** The figures' panels, as the last figures say. */
const Panels = reactive(({ model, t, f }: Props) => {
  const data = model.data.value;
  if (model.status.value.kind === "signed-out") return <SignedOut t={t} />;
  if (!data) return <div class="panels" />;
  const view = model.view();
  const shared = { t, f, view };
  return (
    <div class="panels">
      <Giving data={data} {...shared} />
      <Funnel data={data} {...shared} />
      <Segments {...shared} title={t.channels} first={t.channel} csv="channels" list={data.channels} />
      <Segments
        {...shared}
        title={t.devices}
        first={t.device}
        csv="devices"
        list={data.devices}
        names={t.deviceNames}
      />
      <Defence data={data} model={model} {...shared} />
      <Health data={data} {...shared} />
    </div>
  );
});

const Status = reactive(({ model, t, f }: Props) => (
  <StatusLine>{statusText(model.status.value, t, f)}</StatusLine>
));

/** The staff dashboard (/dashboard): its title, the view's controls, the status line and the panels. */
export function Dashboard(props: Props) {
  return (
    <>
      <PageLinks t={props.t} current="/dashboard" />
      <h1>{props.t.title}</h1>
      <Controls {...props} />
      <Status {...props} />
      <Panels {...props} />
    </>
  );
}
