/** The dashboard's panels, each drawn from the proxy's figures (contract/dashboard.ts). */
import type { DashboardData, Segment } from "../../contract/dashboard";
import type { DashboardModel } from "./dashboard-model";
import type { Formats } from "./format";
import type { PanelWords } from "./i18n";
import { Section } from "./parts";
import { Bars, CsvLink, Figures, Table } from "./tables";
import { Venue } from "./Venue";

interface PanelProps {
  data: DashboardData;
  t: PanelWords;
  f: Formats;
  view: URLSearchParams;
}

/** Names of what is open now, or the word for none. */
const orNone = (names: string[], t: PanelWords) => names.join(", ") || t.none;

/** Giving: the room display's figures, then givekit's in the period and its gifts per hour. */
export function Giving({ data, t, f, view }: PanelProps) {
  const g = data.giving;
  return (
    <Section class="panel wide" title={t.giving}>
      <h3>{t.room}</h3>
      <Table
        caption={t.room}
        head={[t.campaign, t.raised, t.goal, t.donors]}
        rows={g.room.map((r) => [
          r.campaign,
          r.progress
            ? `${f.amount(r.progress.raised, r.progress.currency)}${r.failing ? ` ${t.stale}` : ""}`
            : "–",
          r.progress?.goal ? f.amount(r.progress.goal, r.progress.currency) : "–",
          r.progress ? f.whole(r.progress.donors) : "–",
        ])}
      />
      <CsvLink name="room" view={view} t={t} />
      <h3>{t.inPeriod}</h3>
      <Figures
        class="figures"
        figures={[
          [t.gifts, f.whole(g.gifts)],
          [t.raised, f.cents(g.cents)],
          [t.average, f.cents(g.averageCents)],
          [t.monthly, f.percent(g.recurringShare)],
          [t.fee, f.percent(g.feeCoveredShare)],
          [t.declined, f.whole(g.declined)],
        ]}
      />
      <h3>{t.perHour}</h3>
      {g.gifts === 0 ? (
        <p class="empty">{t.noGifts}</p>
      ) : (
        <Bars
          title={t.perHour}
          hours={g.perHour.map((hour) => ({ hour: hour.hour, value: hour.gifts }))}
          hourLabel={f.hour}
        />
      )}
      <CsvLink name="giving" view={view} t={t} />
    </Section>
  );
}

/** Where donors stop: each step of the form, how many reached it, left there, and why. */
export function Funnel({ data, t, f, view }: PanelProps) {
  return (
    <Section class="panel wide" title={t.funnel}>
      <Table
        caption={t.funnel}
        head={[t.step, t.reached, t.left, t.why]}
        rows={data.funnel.map((s) => [
          t.steps[s.step] ?? s.step,
          f.whole(s.reached),
          s.reached === 0 ? "–" : `${f.whole(s.left)} (${f.percent(s.shareLeft)})`,
          s.reasons.map((r) => `${t.reasons[r.reason] ?? r.reason}: ${f.whole(r.count)}`).join(", "),
        ])}
      />
      <CsvLink name="funnel" view={view} t={t} />
    </Section>
  );
}

/**
 * By channel or by device: forms shown, gifts sent, thanked and declined (the proxy's own
 * counts), and the share finished; a card per row in a narrow panel.
 */
export function Segments({
  t,
  f,
  view,
  title,
  first,
  csv,
  list,
  names = {},
}: Omit<PanelProps, "data"> & {
  title: string;
  first: string;
  csv: string;
  list: Segment[];
  names?: Record<string, string>;
}) {
  return (
    <Section class="panel" title={title}>
      <Table
        caption={title}
        head={[first, t.shown, t.sent, t.thanked, t.declined, t.finished]}
        rows={list.map((s) => [
          names[s.name] ?? s.name,
          f.whole(s.shown),
          f.whole(s.sent),
          f.whole(s.thanked),
          f.whole(s.declined),
          f.percent(s.shareFinished),
        ])}
        stacked
      />
      <CsvLink name={csv} view={view} t={t} />
    </Section>
  );
}

/** Health: the store, the reconciler's and the webhooks' backlog, the defence open, the upstream's answers. */
export function Health({ data, t, f, view }: PanelProps) {
  const health = data.health;
  return (
    <Section class="panel" title={t.health}>
      <Figures
        class="facts"
        figures={[
          [t.store, health.store ? t.ok : t.down],
          [t.unknown, f.whole(health.unknownOutcomes)],
          [t.waiting, f.whole(health.webhooksWaiting)],
          [t.dead, f.whole(health.webhooksDead)],
          [
            t.failing,
            orNone(
              health.webhooksFailing.map((w) => w.endpoint),
              t,
            ),
          ],
          [
            t.defence,
            orNone(
              health.defenceOpen.map((d) => `${d.scope}: ${d.signal}`),
              t,
            ),
          ],
          [t.latencyP50, t.ms(health.upstream.latencyMs.p50)],
          [t.latencyP95, t.ms(health.upstream.latencyMs.p95)],
        ]}
      />
      <Table
        caption={t.upstream}
        head={[t.answer, t.count]}
        rows={health.upstream.answers.map((a) => [a.label, f.whole(a.count)])}
      />
      <Table
        caption={t.upstreamHours}
        head={[
          t.hour,
          t.answered,
          t.refused,
          t.failed,
          t.unreachable,
          t.unknownAnswer,
          t.latencyP50,
          t.latencyP95,
        ]}
        rows={health.upstream.perHour
          .filter((hour) => Object.keys(hour.answers).length > 0)
          .map((hour) => [
            f.hour(hour.hour),
            ...["answered", "refused", "failed", "unreachable", "unknown"].map((k) =>
              f.whole(hour.answers[k] ?? 0),
            ),
            t.ms(hour.latencyMs.p50),
            t.ms(hour.latencyMs.p95),
          ])}
      />
      <CsvLink name="upstream" view={view} t={t} />
    </Section>
  );
}

/** Defence: the challenges, the card network's declines, what is open now, the venue button, the hours. */
export function Defence({ data, t, f, view, model }: PanelProps & { model: DashboardModel }) {
  const d = data.defence;
  return (
    <Section class="panel wide" title={t.defencePanel}>
      <Figures
        class="figures"
        figures={[
          [t.asked, f.whole(d.challengesAsked)],
          [t.solved, f.whole(d.challengesSolved)],
          [t.solveP50, t.ms(d.solveMs.p50)],
          [t.solveP95, t.ms(d.solveMs.p95)],
          [t.declinedNetwork, f.whole(d.declined)],
          [
            t.scrutiny,
            orNone(
              d.scrutinyOpen.map((o) => `${o.scope}: ${o.signal}`),
              t,
            ),
          ],
          [
            t.breakers,
            orNone(
              d.breakersOpen.map((b) => b.name),
              t,
            ),
          ],
          [t.heldNow, t.heldFor(d.heldNow.people, d.heldNow.longestS)],
        ]}
      />
      {d.venue ? <Venue model={model} t={t} f={f} /> : null}
      <h3>{t.askedPerHour}</h3>
      <Bars
        title={t.askedPerHour}
        hours={d.perHour.map((hour) => ({ hour: hour.hour, value: hour.asked }))}
        hourLabel={f.hour}
      />
      <Table
        caption={t.refusals}
        head={[t.reason, t.count]}
        rows={d.refusals.map((r) => [r.reason, f.whole(r.count)])}
      />
      <CsvLink name="refusals" view={view} t={t} />
      <Table
        caption={t.defenceHours}
        head={[t.hour, t.asked, t.solved, t.refused, t.declinedNetwork]}
        rows={d.perHour
          .filter((hour) => hour.asked + hour.solved + hour.refused + hour.declined > 0)
          .map((hour) => [
            f.hour(hour.hour),
            f.whole(hour.asked),
            f.whole(hour.solved),
            f.whole(hour.refused),
            f.whole(hour.declined),
          ])}
      />
      <CsvLink name="defence" view={view} t={t} />
    </Section>
  );
}
